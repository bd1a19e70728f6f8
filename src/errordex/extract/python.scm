; Throw statements and classes, in one pass over the tree.
(raise_statement) @raise
(assert_statement) @assert
(class_definition) @class
