;;; gec-m2-mode.el --- M2 and CGED files with the m2lsp language server (eglot)  -*- lexical-binding: t; -*-

;; Emacs 29 has eglot built in; on Emacs 28 install it (Debian: apt install elpa-eglot, or
;; M-x package-install RET eglot).  Load this file from your init.el:
;;   (load "/path/to/gec-m2-mode.el")
;; The server is the `m2lsp' command: on `exec-path', else in a .venv/bin at or above the
;; file (the README's install), else `python3 -m m2lsp' where that Python has it; set
;; `gec-m2-server-command' to name another.  If none is found it says so plainly.
;;
;;   *.m2 files open in gec-m2-mode (not Modula-2), CGED files in gec-cged-mode; eglot
;;   starts m2lsp for them.  M-x gec-m2-score asks for a system file, scores the gold in
;;   the buffer (the score stays live while you edit) and lists every wrong (FP) and
;;   missed (FN) edit in a compilation buffer: RET or M-g n visits each.
;;   M-x gec-m2-annotate on an S or A line asks for the corrected sentence (prefilled with
;;   that annotator's current one) and makes it that annotator's A lines, with ERRANT's
;;   (English) or ChERRANT's (char-level Chinese) types where installed; one undo step.

(require 'eglot)
(require 'jsonrpc)

(defgroup gec-m2 nil "GEC data (M2, CGED) with m2lsp." :group 'languages)

(defcustom gec-m2-server-command nil
  "Command line that starts the m2lsp language server (nil: found, see the commentary)."
  :type '(choice (const :tag "Find m2lsp" nil) (repeat string)))

(defun gec-m2-find-server ()
  "The command line of the m2lsp server, or a `user-error' that says why there is none."
  (let* ((venv (locate-dominating-file default-directory ".venv/bin/m2lsp"))
         (in-venv (and venv (expand-file-name ".venv/bin/m2lsp" venv))))
    (cond (gec-m2-server-command gec-m2-server-command)
          ((executable-find "m2lsp") (list (executable-find "m2lsp") "serve"))
          ((and in-venv (file-executable-p in-venv)) (list in-venv "serve"))
          ((and (executable-find "python3")
                (eq 0 (call-process "python3" nil nil nil "-c" "import m2lsp")))
           '("python3" "-m" "m2lsp" "serve"))
          (t (user-error (concat "m2lsp: the language server was not found: no `m2lsp' "
                                 "on exec-path, none in a .venv/bin at or above %s, and "
                                 "python3 cannot import m2lsp.  Install it (pip install "
                                 "m2lsp) or set `gec-m2-server-command'")
                         default-directory)))))

(defconst gec-m2-font-lock
  '(("^S " . font-lock-keyword-face)
    ("^A " . font-lock-function-name-face)
    ("|||" . font-lock-comment-face)
    ("-NONE-\\|REQUIRED\\|noop" . font-lock-constant-face)))

(define-derived-mode gec-m2-mode text-mode "M2"
  "Major mode for M2 files (grammatical error correction gold and system edits)."
  (setq-local font-lock-defaults '(gec-m2-font-lock))
  (setq-local truncate-lines t))

(define-derived-mode gec-cged-mode text-mode "CGED"
  "Major mode for CGED SGML and truth files.")

(add-to-list 'auto-mode-alist '("\\.m2\\'" . gec-m2-mode))
(add-to-list 'auto-mode-alist '("[Tt]ruth[^/]*\\.txt\\'" . gec-cged-mode))
(add-to-list 'magic-mode-alist '("\\s-*\\(<\\?xml[^>]*>\\s-*\\)?<\\(DOC\\|ROOT\\|TEXT\\|SENTENCE\\)\\b" . gec-cged-mode))

(add-to-list 'eglot-server-programs
             `((gec-m2-mode gec-cged-mode) . ,(lambda (&rest _) (gec-m2-find-server))))
(add-hook 'gec-m2-mode-hook #'eglot-ensure)
(add-hook 'gec-cged-mode-hook #'eglot-ensure)

(defun gec-m2--uri () (eglot--path-to-uri (buffer-file-name)))

(defun gec-m2--server ()
  "This buffer's m2lsp connection, or a `user-error' saying that there is none (jsonrpc
would otherwise fail on nil with `cl-no-applicable-method')."
  (or (eglot-current-server)
      (user-error (concat "m2lsp is not attached to this buffer: open an M2 or CGED "
                          "file (gec-m2-mode) and let eglot start it, or M-x eglot"))))

(defun gec-m2-score (system)
  "Score the M2 gold in this buffer against SYSTEM and list its FP and FN edits."
  (interactive "fSystem output: ")
  (let ((server (gec-m2--server)))
    (jsonrpc-request server :workspace/executeCommand
                     `(:command "m2lsp.score"
                       :arguments [,(gec-m2--uri) ,(expand-file-name system)]))
    (gec-m2-review)))

(defun gec-m2-review (&optional sort)
  "List every FP and FN edit of this buffer's live score (SORT: f, fp, fn or line)."
  (interactive)
  (let* ((file (buffer-file-name))
         (report (jsonrpc-request (gec-m2--server) :m2lsp/scoreReport
                                  `(:uri ,(gec-m2--uri) :sort ,(or sort "f"))))
         (error-text (plist-get report :error)))
    (when error-text (user-error "m2lsp: %s" error-text))
    (with-current-buffer (get-buffer-create "*m2lsp score*")
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (format "m2lsp: F%s %.4f (P %.4f R %.4f)\n\n" (plist-get report :beta)
                        (plist-get report :f) (plist-get report :precision)
                        (plist-get report :recall)))
        (seq-doseq (sentence (plist-get report :sentences))
          (seq-doseq (edit (plist-get sentence :edits))
            (unless (equal (plist-get edit :kind) "TP")
              (let ((start (plist-get (plist-get edit :range) :start)))
                (insert (format "%s:%d:%d: %s %s\n" file (1+ (plist-get start :line))
                                (1+ (plist-get start :character)) (plist-get edit :kind)
                                (plist-get edit :message))))))))
      (compilation-mode)
      (display-buffer (current-buffer)))))

(defun gec-m2-annotate (&optional corrected)
  "Make the CORRECTED sentence this block's A lines for the annotator at point.
On an S line: the block's first annotator; on an A line: that line's.  Interactively,
asks for the sentence, prefilled with the annotator's current correction."
  (interactive)
  (gec-m2--server)  ; says so when m2lsp is not attached
  (eglot--signal-textDocument/didChange)  ; the server edits what is in the buffer now
  (let* ((server (gec-m2--server))
         (here `(:line ,(1- (line-number-at-pos)) :character 0))
         (actions (jsonrpc-request server :textDocument/codeAction
                                   `(:textDocument (:uri ,(gec-m2--uri))
                                     :range (:start ,here :end ,here)
                                     :context (:diagnostics [] :only ["refactor.rewrite"]))))
         (args (seq-some (lambda (action)
                           (let ((command (plist-get action :command)))
                             (and (equal (plist-get command :command)
                                         "m2lsp.annotateFromCorrection")
                                  (plist-get command :arguments))))
                         actions)))
    (unless args (user-error "m2lsp: no M2 sentence here (put point on an S or A line)"))
    (let* ((text (or corrected
                     (read-string (format "Corrected (annotator %s): " (aref args 3))
                                  (aref args 4))))
           ;; the user asked for this edit: eglot applies it without asking again
           (eglot-confirm-server-initiated-edits nil)
           (answer (jsonrpc-request server :workspace/executeCommand
                                    `(:command "m2lsp.annotateFromCorrection"
                                      :arguments [,(aref args 0) ,(aref args 1) ,text
                                                  ,(aref args 3)]))))
      (when (plist-get answer :error) (user-error "m2lsp: %s" (plist-get answer :error)))
      (when (plist-get answer :note) (message "m2lsp: %s" (plist-get answer :note)))
      answer)))

;; The workbench's actions whose command needs what the user types (eglot would send the
;; action's own arguments, which leave the correction or the cut empty): the action asked of
;; the server for the region, its arguments completed here, the command run.
(defun gec-m2--action-arguments (command start end)
  "The arguments of the code action running COMMAND for START..END, or a `user-error'."
  (eglot--signal-textDocument/didChange)  ; the server acts on what is in the buffer now
  (let* ((actions (jsonrpc-request
                   (gec-m2--server) :textDocument/codeAction
                   `(:textDocument (:uri ,(gec-m2--uri))
                     :range (:start ,(eglot--pos-to-lsp-position start)
                             :end ,(eglot--pos-to-lsp-position end))
                     :context (:diagnostics []))))
         (found (seq-some (lambda (action)
                            (let ((command-of (plist-get action :command)))
                              (and (equal (plist-get command-of :command) command)
                                   (plist-get command-of :arguments))))
                          actions)))
    (or found (user-error "m2lsp: no %s here (select tokens of an S line)" command))))

(defun gec-m2--run (command arguments)
  "Run COMMAND with ARGUMENTS on the server; its edit applied without asking again."
  (let* ((eglot-confirm-server-initiated-edits nil)
         (answer (jsonrpc-request (gec-m2--server) :workspace/executeCommand
                                  `(:command ,command :arguments ,arguments))))
    (when (plist-get answer :error) (user-error "m2lsp: %s" (plist-get answer :error)))
    (when (plist-get answer :note) (message "m2lsp: %s" (plist-get answer :note)))
    answer))

(defun gec-m2-add-edit (start end &optional correction annotator)
  "Add an edit for the S line's tokens between START and END (the region).
Interactively asks for the CORRECTION (prefilled with the tokens) and, when the
sentence has several annotators, whose edit it is."
  (interactive "r")
  (let* ((a (gec-m2--action-arguments "m2lsp.addEdit" start end))
         (annotators (append (aref a 6) nil))
         (text (or correction (read-string (format "Correction of '%s': " (aref a 7))
                                           (aref a 7))))
         (who (or annotator
                  (if (cdr annotators)
                      (completing-read "Whose edit is it? " annotators nil t)
                    (or (car annotators) "0")))))
    (gec-m2--run "m2lsp.addEdit"
                 (vector (aref a 0) (aref a 1) (aref a 2) (aref a 3) text who (aref a 8)))))

(defun gec-m2-split-token (&optional pieces)
  "Split the S line's token at point where PIECES has spaces (asked, prefilled with
the token); every annotator's edits move to stay on their words."
  (interactive)
  (let* ((a (gec-m2--action-arguments "m2lsp.splitToken" (point) (point)))
         (cut (or pieces (read-string (format "Split '%s' at spaces: " (aref a 4))
                                      (aref a 4)))))
    (gec-m2--run "m2lsp.splitToken"
                 (vector (aref a 0) (aref a 1) (aref a 2) cut (aref a 4) (aref a 5)))))

(provide 'gec-m2-mode)
;;; gec-m2-mode.el ends here
