; Functions, for forwarders (`def fail(self, message): raise X(message)`),
; and the callee names of calls that may pass message text to one
; (`self.fail(_("bad"))`): forward.py leaves out the names that are
; never a forwarder by their text (a predicate here would cost more: the
; bindings run it in Python).
(function_definition) @function
(call
  function: (identifier) @forward.callee
  arguments: (argument_list))
(call
  function: (attribute attribute: (identifier) @forward.method)
  arguments: (argument_list))
