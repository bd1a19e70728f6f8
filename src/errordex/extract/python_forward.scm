; Functions, for forwarders (`def fail(self, message): raise X(message)`),
; and calls that may pass message text to one (`self.fail(_("bad"))`).
; "__not_forwarders__" is replaced by a pattern of python_forward._NOT_FORWARDERS:
; names never a forwarder are left out here, before any Python runs.
(function_definition name: (identifier) @name) @function
(call
  function: [(identifier) @callee (attribute attribute: (identifier) @callee)]
  arguments: (argument_list)
  (#not-match? @callee "^([A-Z]|assert|__)")
  (#not-match? @callee "__not_forwarders__")) @call
