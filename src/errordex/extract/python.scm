; Throw statements and classes, in one pass over the tree.
(raise_statement) @raise
(assert_statement) @assert
(class_definition) @class
; Functions, for forwarders (`def fail(self, message): raise X(message)`),
; and calls that may pass message text to one.
(function_definition) @function
(call function: [(identifier) (attribute)] arguments: (argument_list)) @call
