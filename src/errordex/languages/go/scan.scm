; What the evidence scan reads (scan.py); one walk with extract.scm.

(function_declaration) @scan.func
(method_declaration) @scan.func
(call_expression) @scan.call
