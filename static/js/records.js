// Game records (issue #18). Progressive enhancement only: without this script the replay page
// shows the move list and the final position (each move a link to its position), and the desk
// form checks on "Check". With it: step/jump controls on the replay page, and on the desk page
// a check as the arbiter types (debounced), redrawing the move list and the board.
(function () {
  "use strict";

  var GLYPHS = {
    K: ["帅", "将"], A: ["仕", "士"], E: ["相", "象"], H: ["傌", "馬"],
    R: ["俥", "車"], C: ["炮", "砲"], P: ["兵", "卒"]
  };
  var FEN_LETTERS = { k: "K", a: "A", b: "E", e: "E", n: "H", h: "H", r: "R", c: "C", p: "P", x: "X" };
  var NS = "http://www.w3.org/2000/svg";

  function glyph(letter) {
    var g = GLYPHS[letter.toUpperCase()];
    if (!g) return "";
    return letter === letter.toUpperCase() ? g[0] : g[1];
  }

  function parseHidden(text) {
    var map = {};
    (text || "").split(",").forEach(function (pair) {
      var parts = pair.split(":");
      if (parts.length === 2) map[parts[0]] = parts[1];
    });
    return map;
  }

  function el(name, attrs, text) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function piece(parent, x, y, letter, hint, r) {
    var red = letter === letter.toUpperCase();
    var down = letter.toUpperCase() === "X";
    var g = el("g", { "class": "pc " + (down ? "down " : "") + (red ? "red" : "black") });
    g.appendChild(el("circle", { cx: x, cy: y, r: r }));
    if (down) {
      if (hint) g.appendChild(el("text", { x: x, y: y, "class": "hint" }, glyph(hint)));
    } else {
      g.appendChild(el("text", { x: x, y: y }, glyph(letter)));
    }
    parent.appendChild(g);
  }

  function line(parent, x1, y1, x2, y2) {
    parent.appendChild(el("line", { x1: x1, y1: y1, x2: x2, y2: y2 }));
  }

  // The same board as the server's `xiangqi_svg` (src/http/pages/games.rs).
  function xiangqiSvg(fen, hidden, label) {
    var S = 40, M = 30, w = 8 * S + 2 * M, h = 9 * S + 2 * M, i, f;
    var svg = el("svg", { "class": "xq-board", viewBox: "0 0 " + w + " " + h, role: "img", "aria-label": label });
    svg.appendChild(el("rect", { "class": "bg", x: 0, y: 0, width: w, height: h }));
    var grid = el("g", { "class": "grid" });
    for (i = 0; i < 10; i++) line(grid, M, M + i * S, M + 8 * S, M + i * S);
    for (f = 0; f < 9; f++) {
      var x = M + f * S;
      if (f === 0 || f === 8) line(grid, x, M, x, M + 9 * S);
      else { line(grid, x, M, x, M + 4 * S); line(grid, x, M + 5 * S, x, M + 9 * S); }
    }
    [0, 7].forEach(function (top) {
      line(grid, M + 3 * S, M + top * S, M + 5 * S, M + (top + 2) * S);
      line(grid, M + 5 * S, M + top * S, M + 3 * S, M + (top + 2) * S);
    });
    svg.appendChild(grid);
    var coords = el("g", { "class": "coords" });
    for (f = 0; f < 9; f++) coords.appendChild(el("text", { x: M + f * S, y: h - 6 }, "abcdefghi"[f]));
    for (i = 0; i < 10; i++) coords.appendChild(el("text", { x: 10, y: M + (9 - i) * S }, String(i)));
    svg.appendChild(coords);
    var pieces = el("g", { "class": "pieces" });
    var rows = (fen.split(" ")[0] || "").split("/");
    rows.slice(0, 10).forEach(function (row, ri) {
      var rank = 9 - ri, file = 0;
      for (var k = 0; k < row.length; k++) {
        var c = row[k];
        if (c >= "0" && c <= "9") { file += Number(c); continue; }
        var up = FEN_LETTERS[c.toLowerCase()];
        if (!up) continue;
        var letter = c === c.toUpperCase() ? up : up.toLowerCase();
        if (file < 9) {
          var sq = "abcdefghi"[file] + rank;
          piece(pieces, M + file * S, M + (9 - rank) * S, letter, hidden[sq], 17);
        }
        file += 1;
      }
    });
    svg.appendChild(pieces);
    return svg;
  }

  // The same board as the server's `banqi_svg`.
  function banqiSvg(rowsText, hidden, label) {
    var S = 44, M = 24, w = 8 * S + 2 * M, h = 4 * S + 2 * M, i;
    var svg = el("svg", { "class": "bq-board", viewBox: "0 0 " + w + " " + h, role: "img", "aria-label": label });
    svg.appendChild(el("rect", { "class": "bg", x: 0, y: 0, width: w, height: h }));
    var grid = el("g", { "class": "grid" });
    for (i = 0; i <= 4; i++) line(grid, M, M + i * S, M + 8 * S, M + i * S);
    for (i = 0; i <= 8; i++) line(grid, M + i * S, M, M + i * S, M + 4 * S);
    svg.appendChild(grid);
    var coords = el("g", { "class": "coords" });
    for (i = 0; i < 8; i++) coords.appendChild(el("text", { x: M + i * S + S / 2, y: h - 6 }, "abcdefgh"[i]));
    for (i = 0; i < 4; i++) coords.appendChild(el("text", { x: 10, y: M + (3 - i) * S + S / 2 }, String(i + 1)));
    svg.appendChild(coords);
    var pieces = el("g", { "class": "pieces" });
    rowsText.split("/").slice(0, 4).forEach(function (row, r) {
      for (var c = 0; c < Math.min(8, row.length); c++) {
        if (row[c] === ".") continue;
        var sq = "abcdefgh"[c] + (r + 1);
        piece(pieces, M + c * S + S / 2, M + (3 - r) * S + S / 2, row[c], hidden[sq], 19);
      }
    });
    svg.appendChild(pieces);
    return svg;
  }

  function draw(holder, game, fen, hidden, label) {
    var svg = game === "banqi" ? banqiSvg(fen, hidden, label) : xiangqiSvg(fen, hidden, label);
    holder.replaceChildren(svg);
  }

  // ------------------------------------------------------------------ replay page
  function initReplay(root) {
    var game = root.getAttribute("data-game");
    var start = root.getAttribute("data-start");
    var hidden = parseHidden(root.getAttribute("data-hidden"));
    var label = root.getAttribute("data-label") || "";
    var holder = root.querySelector("[data-board]");
    var links = Array.prototype.slice.call(root.querySelectorAll("a[data-ply]"));
    var controls = root.querySelector("[data-controls]");
    var output = root.querySelector("[data-position]");
    var total = links.length;
    var current = Number(root.getAttribute("data-shown")) || total;

    function show(ply) {
      current = Math.max(0, Math.min(total, ply));
      var fen = current === 0 ? start : links[current - 1].getAttribute("data-fen");
      draw(holder, game, fen, hidden, label);
      links.forEach(function (a, i) {
        if (i + 1 === current) a.setAttribute("aria-current", "step");
        else a.removeAttribute("aria-current");
      });
      if (output) output.textContent = current + " / " + total;
      if (current > 0) {
        var a = links[current - 1], list = a.closest("ol");
        if (list && list.scrollHeight > list.clientHeight) {
          list.scrollTop = a.offsetTop - list.offsetTop - list.clientHeight / 2;
        }
      }
    }

    links.forEach(function (a) {
      a.addEventListener("click", function (event) {
        event.preventDefault();
        show(Number(a.getAttribute("data-ply")));
      });
    });
    if (controls) {
      controls.hidden = false;
      controls.addEventListener("click", function (event) {
        var button = event.target.closest("button[data-step]");
        if (!button) return;
        var step = button.getAttribute("data-step");
        if (step === "first") show(0);
        else if (step === "prev") show(current - 1);
        else if (step === "next") show(current + 1);
        else if (step === "last") show(total);
      });
    }
    root.addEventListener("keydown", function (event) {
      if (event.key === "ArrowLeft") { show(current - 1); event.preventDefault(); }
      else if (event.key === "ArrowRight") { show(current + 1); event.preventDefault(); }
      else if (event.key === "Home") { show(0); event.preventDefault(); }
      else if (event.key === "End") { show(total); event.preventDefault(); }
    });
    show(current);
  }

  // ------------------------------------------------------------------ desk page
  function initDesk(root) {
    var form = root.querySelector("form");
    var text = form.querySelector("textarea[name=text]");
    var notation = form.querySelector("select[name=notation]");
    var problem = root.querySelector("[data-problem]");
    var list = root.querySelector("[data-desk-moves]");
    var holder = root.querySelector("[data-board]");
    var heading = list ? list.previousElementSibling : null;
    var game = root.getAttribute("data-game");
    var label = root.getAttribute("data-label") || "";
    var url = root.getAttribute("data-check");
    var timer = null, sent = 0;

    function render(replay) {
      list.replaceChildren();
      replay.plies.forEach(function (p) {
        var li = document.createElement("li");
        li.value = p.ply;
        li.setAttribute("data-fen", p.fen);
        li.appendChild(document.createTextNode(p.text + " "));
        var small = document.createElement("span");
        small.className = "muted";
        small.textContent = p.chinese + " · " + p.iccs;
        li.appendChild(small);
        list.appendChild(li);
      });
      if (replay.error) {
        var bad = document.createElement("li");
        bad.value = replay.error.ply;
        bad.className = "bad";
        bad.textContent = replay.error.text;
        list.appendChild(bad);
        problem.textContent = replay.error.message;
        text.setAttribute("aria-invalid", "true");
      } else {
        problem.textContent = "";
        text.removeAttribute("aria-invalid");
      }
      if (heading) heading.textContent = heading.textContent.replace(/\d+/, String(replay.plies.length));
      var last = replay.plies.length ? replay.plies[replay.plies.length - 1].fen : replay.start_fen;
      draw(holder, game, last, {}, label);
      if (replay.banqi) {
        var aid = root.querySelector("[data-banqi-aid]");
        if (aid) {
          var set = function (key, value) {
            var dd = aid.querySelector("[data-aid=" + key + "]");
            if (dd) dd.textContent = value;
          };
          if (replay.banqi.all_face_up) set("count", replay.banqi.count + " / 25");
          set("chase_red", replay.banqi.chase_red);
          set("chase_black", replay.banqi.chase_black);
          set("fouls", replay.banqi.fouls.length ? replay.banqi.fouls.join(", ") : "–");
        }
      }
    }

    function check() {
      var body = new URLSearchParams();
      body.set("csrf", form.querySelector("input[name=csrf]").value);
      body.set("notation", notation.value);
      body.set("text", text.value);
      var mine = ++sent;
      fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: body.toString(),
        credentials: "same-origin"
      }).then(function (response) {
        return response.json().then(function (json) { return { ok: response.ok, json: json }; });
      }).then(function (answer) {
        if (mine !== sent) return;
        if (answer.ok) render(answer.json);
        else problem.textContent = answer.json.message || "";
      }).catch(function () { /* the form still works without the live check */ });
    }

    function later() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(check, 400);
    }
    text.addEventListener("input", later);
    notation.addEventListener("change", check);
    root.setAttribute("data-live", "on");
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-replay]"), initReplay);
    Array.prototype.forEach.call(document.querySelectorAll("[data-record-desk]"), initDesk);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
