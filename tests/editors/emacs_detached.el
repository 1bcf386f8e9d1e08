;;; Emacs (batch): M-x gec-m2-score and gec-m2-annotate in a buffer m2lsp is not attached to
;;; (no server started); writes each command's error message to $M2LSP_EMACS_OUT.  -*- lexical-binding: t; -*-
(load (getenv "M2LSP_EMACS_SETUP"))
(remove-hook 'gec-m2-mode-hook #'eglot-ensure)  ; no server for this buffer
(find-file (getenv "M2LSP_EMACS_GOLD"))
(let (said)
  (dolist (command (list (lambda () (gec-m2-score "system.txt"))
                         (lambda () (gec-m2-annotate "The cat sat ."))
                         (lambda () (gec-m2-review))))
    (push (condition-case err (progn (funcall command) "no error")
            (error (error-message-string err)))
          said))
  (with-temp-file (getenv "M2LSP_EMACS_OUT")
    (insert (mapconcat #'identity (nreverse said) "\n"))))
(kill-emacs 0)
