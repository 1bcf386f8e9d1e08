;;; Emacs (batch) with eglot: the README's gec-m2-mode.el, then M-x gec-m2-score on a gold
;;; file; writes the major mode and the listed edits to $M2LSP_EMACS_OUT.  -*- lexical-binding: t; -*-
(load (getenv "M2LSP_EMACS_SETUP"))
(setq gec-m2-server-command (split-string (getenv "M2LSP_EMACS_CMD") "\t"))
(setq eglot-sync-connect 60)
(find-file (getenv "M2LSP_EMACS_GOLD"))
(run-hooks 'post-command-hook)  ; eglot-ensure starts the server after a command
(let ((deadline (+ (float-time) 60)))
  (while (and (not (eglot-current-server)) (< (float-time) deadline))
    (accept-process-output nil 0.1)))
(gec-m2-score (getenv "M2LSP_EMACS_SYSTEM"))
(let ((mode (symbol-name major-mode))
      (listing (with-current-buffer "*m2lsp score*" (buffer-string))))
  (with-temp-file (getenv "M2LSP_EMACS_OUT")
    (insert mode "\n" listing)))
(kill-emacs 0)
