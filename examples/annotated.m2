S The cat sit on mat .
A 2 3|||R:VERB:SVA|||sits|||REQUIRED|||-NONE-|||0
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 2 3|||R:VERB:TENSE|||sat|||REQUIRED|||-NONE-|||1
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||1

S She like reading book .
A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||books|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||books|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S This sentence is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S We goes to school every days .
A 1 2|||R:VERB:SVA|||go|||REQUIRED|||-NONE-|||0
A 7 8|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||go|||REQUIRED|||-NONE-|||1
A 5 6|||R:NOUM|||day|||REQUIRED|||-NONE-|||1
