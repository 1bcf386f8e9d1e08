;;; Emacs (batch): which server command the README's recipe finds; to $M2LSP_EMACS_OUT.  -*- lexical-binding: t; -*-
(load (getenv "M2LSP_EMACS_SETUP"))
(let ((found (condition-case err (mapconcat #'identity (gec-m2-find-server) "\t")
               (user-error (concat "ERROR " (error-message-string err))))))
  (with-temp-file (getenv "M2LSP_EMACS_OUT") (insert found)))
(kill-emacs 0)
