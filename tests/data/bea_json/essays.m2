S I has a dog .
A 1 2|||R:VERB:SVA|||have|||REQUIRED|||-NONE-|||0

S He like to run in the park
A 7 7|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0

S Dear Sir ,
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S I am writting to you about the ' trip ' .
A 2 3|||R:SPELL|||writing|||REQUIRED|||-NONE-|||0
A 5 5|||M:OTHER|||" at "|||REQUIRED|||-NONE-|||0

S Yours faithfully ,
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Anna
A 0 0|||M:NOUN|||Ms|||REQUIRED|||-NONE-|||0

S We recieved thier letters yesterday , and we was happy .
A 1 2|||R:SPELL|||received|||REQUIRED|||-NONE-|||0
A 2 3|||R:SPELL|||their|||REQUIRED|||-NONE-|||0
A 8 9|||R:VERB:SVA|||were|||REQUIRED|||-NONE-|||0

S I look forward to hear from you .
A 4 5|||R:VERB:FORM|||hearing|||REQUIRED|||-NONE-|||0

S The hotel was very noisy and dirty .
A 3 5|||UNK|||very noisy|||REQUIRED|||-NONE-|||0
A 6 7|||R:ADJ|||filthy|||REQUIRED|||-NONE-|||0

S This is the first one .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S And this the second .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S A new line here .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S She go to school every days .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 5 6|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S the the cat sat on mat .
A 0 1|||U:DET||||||REQUIRED|||-NONE-|||0
A 5 5|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 0 0|||M:ADV|||Then|||REQUIRED|||-NONE-|||1
A 1 2|||R:ORTH|||The|||REQUIRED|||-NONE-|||2

S Hello , world !
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S It is fine - really good
A 2 3|||R:SPELL|||nice|||REQUIRED|||-NONE-|||0

S no full stop here
A 4 4|||M:PUNCT|||.|||REQUIRED|||-NONE-|||0

S I went home .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S Then slept .
A 0 0|||M:CONJ|||and|||REQUIRED|||-NONE-|||0
A 1 1|||M:PRON|||I|||REQUIRED|||-NONE-|||0

S It was a good day .
A 1 2|||R:VERB:TENSE|||is|||REQUIRED|||-NONE-|||0
A 2 3|||U:DET||||||REQUIRED|||-NONE-|||0

