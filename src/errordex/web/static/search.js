// Search for the static export: filters window.ERRORDEX_INDEX (search-index.js)
// by the words of ?q=. Results are built with textContent only, never HTML.
(function () {
  "use strict";
  // control characters as \xNN and bidirectional controls as \uNNNN, as the
  // pages show them (errordex.visible)
  function visible(text) {
    return text.replace(/[\x00-\x08\x0b-\x1f\x80-\x9f\u202a-\u202e\u2066-\u2069]/g, function (c) {
      var code = c.charCodeAt(0);
      return code <= 0xff
        ? "\\x" + ("0" + code.toString(16)).slice(-2)
        : "\\u" + ("000" + code.toString(16)).slice(-4);
    });
  }
  function words(text) {
    return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []).slice(0, 40);
  }
  function run() {
    var box = document.getElementById("results");
    var index = window.ERRORDEX_INDEX || [];
    if (!box) { return; }
    var q = new URLSearchParams(window.location.search).get("q") || "";
    var input = document.getElementById("paste");
    if (input) { input.value = q; }
    var lines = q.split("\n").filter(function (l) { return l.trim(); });
    var wanted = words(lines.length ? lines[lines.length - 1] : "");
    if (!wanted.length) { return; }
    var scored = [];
    index.forEach(function (e) {
      var have = words(e.message + " " + e.exception_types.join(" "));
      var set = {};
      have.forEach(function (w) { set[w] = true; });
      var hits = wanted.filter(function (w) { return set[w]; }).length;
      if (hits) { scored.push([hits / Math.max(have.length, wanted.length), e]); }
    });
    scored.sort(function (a, b) { return b[0] - a[0]; });
    var h = document.createElement("h2");
    h.textContent = scored.length ? scored.length + " results" : "No indexed error matches this text.";
    box.appendChild(h);
    var ol = document.createElement("ol");
    ol.className = "catalog results";
    scored.slice(0, 30).forEach(function (s) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.className = "msg";
      a.href = box.getAttribute("data-base") + s[1].href;
      a.textContent = visible(s[1].title);
      var meta = document.createElement("div");
      meta.className = "meta muted";
      meta.textContent = visible(s[1].repo + " · " + s[1].kinds.join(", "));
      li.appendChild(a);
      li.appendChild(meta);
      ol.appendChild(li);
    });
    box.appendChild(ol);
  }
  document.addEventListener("DOMContentLoaded", run);
})();
