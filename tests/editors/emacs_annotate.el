;;; Emacs (batch) with eglot: the README's gec-m2-mode.el, then M-x gec-m2-annotate on an A
;;; line with the text given, and on an S line through the prompt (read-string answered
;;; here), then one undo; writes what it saw to $M2LSP_EMACS_OUT as JSON.  -*- lexical-binding: t; -*-
(load (getenv "M2LSP_EMACS_SETUP"))
(require 'json)
(setq gec-m2-server-command (split-string (getenv "M2LSP_EMACS_CMD") "\t"))
(setq eglot-sync-connect 60)
(setq-default eglot-workspace-configuration
              '((:m2lsp . (:spacyModel "no_such_pipeline" :annotationType "OTHER"))))
(find-file (getenv "M2LSP_EMACS_GOLD"))
(run-hooks 'post-command-hook)  ; eglot-ensure starts the server after a command
(let ((deadline (+ (float-time) 60)))
  (while (and (not (eglot-current-server)) (< (float-time) deadline))
    (accept-process-output nil 0.1)))
(accept-process-output nil 2)
(defun text () (buffer-substring-no-properties (point-min) (point-max)))
(goto-char (point-min))
(forward-line 2)  ; annotator 1's first A line
(undo-boundary)
(gec-m2-annotate "He goes to the school yesterday .")
(let ((given (text)) asked)
  (goto-char (point-max))
  (forward-line -1)  ; the last S line, no edits yet
  (undo-boundary)
  (cl-letf (((symbol-function 'read-string)
             (lambda (prompt default) (setq asked (list prompt default)) "It is very fine .")))
    (call-interactively #'gec-m2-annotate))
  (let ((prompted (text)))
    (undo-boundary)
    (setq last-command nil)
    (undo)
    (let ((seen (json-encode `((mode . ,(symbol-name major-mode)) (given . ,given)
                               (asked . ,(vconcat asked)) (prompted . ,prompted)
                               (undone . ,(text))))))
      (with-temp-file (getenv "M2LSP_EMACS_OUT") (insert seen)))))
(kill-emacs 0)
