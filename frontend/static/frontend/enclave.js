/* Shared page behaviour: the collapsible menu, tables that scroll inside their own box, form errors
 * tied to their fields with focus on the first one, and status changes read out to screen readers. */
(function () {
  "use strict";

  function say(text, urgent) {
    var region = document.getElementById(urgent ? "live-alert" : "live-status");
    if (!region || !text) return;
    region.textContent = "";
    // A fresh text node after a tick is what screen readers notice as a change.
    setTimeout(function () { region.textContent = text; }, 60);
  }

  function squash(node) { return (node.textContent || "").replace(/\s+/g, " ").trim(); }

  function setUpMenu() {
    var button = document.querySelector(".menu-toggle"), nav = document.getElementById("site-nav");
    if (!button || !nav) return;
    button.addEventListener("click", function () {
      button.setAttribute("aria-expanded", String(nav.classList.toggle("open")));
    });
    var groups = nav.querySelectorAll("details.nav-group");
    // A disclosure menu (the site admin's pages) closes on Escape, back to its summary, and on a click elsewhere.
    document.addEventListener("click", function (event) {
      groups.forEach(function (group) { if (group.open && !group.contains(event.target)) group.open = false; });
    });
    nav.addEventListener("keydown", function (event) {
      var group = event.target.closest && event.target.closest("details.nav-group");
      if (event.key === "Escape" && group && group.open) {
        group.open = false;
        group.querySelector("summary").focus();
        event.stopPropagation();
        return;
      }
      if (event.key === "Escape" && nav.classList.contains("open")) {
        nav.classList.remove("open");
        button.setAttribute("aria-expanded", "false");
        button.focus();
      }
    });
  }

  function wrapTables(root) {
    root.querySelectorAll("table").forEach(function (table) {
      if (table.parentElement.classList.contains("table-scroll")) return;
      var box = document.createElement("div");
      box.className = "table-scroll";
      table.parentNode.insertBefore(box, table);
      box.appendChild(table);
    });
    markScrollable();
  }

  // The heading a table sits under: the nearest h1-h3 before it, in its own or an enclosing block.
  function headingBefore(node) {
    for (; node && node !== document.body; node = node.parentElement) {
      for (var prev = node.previousElementSibling; prev; prev = prev.previousElementSibling) {
        if (/^H[1-3]$/.test(prev.tagName)) return squash(prev);
      }
    }
    return "";
  }

  // A scrolling box's name: the table's caption or label, else its heading; numbered when a page repeats one
  // (screen readers list regions by name, and two regions of one name cannot be told apart).
  function boxName(box, table, seen) {
    var caption = table && table.querySelector("caption");
    var name = (caption && squash(caption)) || (table && table.getAttribute("aria-label")) || headingBefore(box);
    name = (name ? name + ": table" : "Table") + ", scrolls sideways";
    seen[name] = (seen[name] || 0) + 1;
    return seen[name] > 1 ? name + " (" + seen[name] + ")" : name;
  }

  // Only a box that really scrolls takes keyboard focus (so arrow keys scroll it) and a name.
  function markScrollable() {
    var seen = {};
    document.querySelectorAll(".table-scroll").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) {
        var table = box.querySelector("table");
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", boxName(box, table, seen));
      } else if (box.hasAttribute("role")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }

  // The error block of a field is #err-<name> (the shared form partials): mark the field invalid and
  // described by it while it holds an error, and drop references to error ids that are not on the page.
  function syncFieldErrors() {
    var fresh = [];
    document.querySelectorAll("[id^='err-']").forEach(function (block) {
      var form = block.closest("form"), name = block.id.slice(4);
      var field = form && form.elements.namedItem(name);
      if (!field || !field.setAttribute) return;
      var text = squash(block), ids = (field.getAttribute("aria-describedby") || "").split(/\s+/);
      ids = ids.filter(function (id) { return id && id !== block.id && document.getElementById(id); });
      if (text) {
        ids.push(block.id);
        field.setAttribute("aria-invalid", "true");
        if (block.dataset.said !== text) fresh.push(text);
      } else {
        field.removeAttribute("aria-invalid");
      }
      block.dataset.said = text;
      if (ids.length) field.setAttribute("aria-describedby", ids.join(" "));
      else field.removeAttribute("aria-describedby");
    });
    return fresh;
  }

  function focusFirstError() {
    var field = document.querySelector("main [aria-invalid='true']");
    if (field) { field.focus(); return; }
    var listed = document.querySelector("main form .errorlist li, #messages .error");
    if (listed) {
      var box = listed.closest(".errorlist, #messages");
      if (!box.hasAttribute("tabindex")) box.tabIndex = -1;
      box.focus();
    }
  }

  // State badges with an id (#cluster-state, #segment-state, ...) are read out when a poll changes them.
  var states = {};
  function watchStates(announce) {
    document.querySelectorAll(".state[id], [data-announce][id]").forEach(function (badge) {
      var text = squash(badge);
      if (announce && states[badge.id] !== undefined && states[badge.id] !== text) {
        say((badge.dataset.announce || "State") + ": " + text, false);
      }
      states[badge.id] = text;
    });
  }

  function announceMessages() {
    var messages = document.getElementById("messages");
    if (messages) say(squash(messages), !!messages.querySelector(".error"));
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpMenu();
    wrapTables(document);
    syncFieldErrors();
    watchStates(false);
    announceMessages();
    focusFirstError();
    window.addEventListener("resize", markScrollable);
    document.body.addEventListener("htmx:load", function (event) { wrapTables(event.target); });
    function swapped(event) {
      var fresh = syncFieldErrors();
      watchStates(true);
      if (fresh.length) say(fresh.join(" "), false);
      var config = event.detail && event.detail.requestConfig;
      if (event.type === "htmx:afterSettle" && config && config.triggeringEvent && config.triggeringEvent.type === "submit") {
        focusFirstError();
      }
    }
    document.body.addEventListener("htmx:afterSettle", swapped);
    document.body.addEventListener("htmx:oobAfterSwap", swapped);
  });
})();
