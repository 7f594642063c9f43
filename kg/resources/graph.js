/* kg graph page: draws the JSON in #kg-data with vis-network (physics off, positions precomputed).
 * Corpus text only ever reaches the document through textContent, never as HTML. */
(function () {
  "use strict";
  var timing = { start: performance.now() };
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  timing.parsed = performance.now();
  var N = data.nodes.length;
  // Many edges: fainter, so that they shade the map rather than cover it.
  var EDGE = "rgba(110,120,140," + Math.max(0.12, Math.min(0.32, 0.32 * Math.sqrt(3000 / Math.max(data.edges.length, 1)))).toFixed(3) + ")";
  var CITE = "rgba(192,80,77,0.55)";

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function colorOf(k) { return k >= 0 && k < data.palette.length ? data.palette[k] : data.other_color; }
  function mix(hex, toward, amount) {
    var n = parseInt(hex.slice(1), 16), t = toward === "white" ? 255 : 0;
    var rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(function (c) {
      return Math.round(c + (t - c) * amount);
    });
    return "rgb(" + rgb.join(",") + ")";
  }

  // ---- adjacency, styles -------------------------------------------------------------------
  var adj = [], i;
  for (i = 0; i < N; i++) adj.push([]);
  data.edges.forEach(function (e, j) { adj[e[0]].push([e[1], j]); adj[e[1]].push([e[0], j]); });

  // One vis group per (kind, community): nodes carry only id, position, size and group, which
  // keeps vis-network's per-node option parsing cheap on big graphs.
  var groups = {};
  function groupOf(n) {
    var name = (n.kind === "paper" ? "p" : n.kind === "community" ? "m" : "c") + n.community;
    if (!groups[name]) {
      var c = colorOf(n.community), paper = n.kind === "paper";
      groups[name] = n.kind === "community"
        ? { shape: "dot", borderWidth: 2, color: { background: mix(c, "white", 0.15), border: mix(c, "black", 0.3),
            highlight: { background: c, border: "#111" }, hover: { background: c, border: "#111" } } }
        : paper
        ? { shape: "square", borderWidth: 1, color: { background: c, border: mix(c, "black", 0.35),
            highlight: { background: c, border: "#111" }, hover: { background: c, border: "#111" } } }
        : { shape: "dot", borderWidth: 2, color: { background: mix(c, "white", 0.55), border: c,
            highlight: { background: mix(c, "white", 0.3), border: "#111" },
            hover: { background: mix(c, "white", 0.3), border: "#111" } } };
    }
    return name;
  }
  // Node sizes in px (papers a little smaller: a square looks bigger than a dot of equal size).
  var sizeOf = data.nodes.map(function (n) { return n.kind === "paper" ? n.size * 0.8 : n.size; });
  var nodes = new vis.DataSet(data.nodes.map(function (n, k) {
    return { id: k, x: n.x, y: n.y, size: sizeOf[k], group: groupOf(n) };
  }));
  // Edges are not vis-network items: kg strokes them itself, one path per colour and width,
  // which draws 10,000 edges in a few milliseconds (vis would create and stroke each one).
  var edges = new vis.DataSet([]);
  timing.datasets = performance.now();
  var container = document.getElementById("kg-network");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, {
    autoResize: true,
    physics: { enabled: false },
    layout: { improvedLayout: false, randomSeed: 1 },
    groups: groups,
    interaction: { hover: true, multiselect: false, navigationButtons: false, keyboard: false }
  });

  timing.network = performance.now();

  // ---- edges -------------------------------------------------------------------------------
  var body = network.body, HIGHLIGHT = "rgba(47,111,222,0.9)";
  function bucketize(indices) {  // "cites|width" -> flat [from, to, from, to, ...]
    var out = {};
    indices.forEach(function (j) {
      var e = data.edges[j], key = (e[3] ? "1|" : "0|") + (Math.round(e[2] * 2) / 2);
      (out[key] = out[key] || []).push(e[0], e[1]);
    });
    return out;
  }
  var allEdges = bucketize(data.edges.map(function (e, j) { return j; }));
  function drawEdges(ctx, buckets, color) {
    var scale = network.getScale();
    ctx.save();
    ctx.lineCap = "round";
    Object.keys(buckets).sort().forEach(function (key) {
      var parts = key.split("|"), pairs = buckets[key];
      ctx.beginPath();
      for (var i = 0; i < pairs.length; i += 2) {
        var a = body.nodes[pairs[i]], b = body.nodes[pairs[i + 1]];
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(b.x, b.y);
      }
      ctx.strokeStyle = color || (parts[0] === "1" ? CITE : EDGE);
      ctx.lineWidth = Math.max(Number(parts[1]), 0.5 / scale);
      ctx.stroke();
    });
    ctx.restore();
  }
  network.on("beforeDrawing", function (ctx) { drawEdges(ctx, allEdges, null); });

  // ---- highlighting ------------------------------------------------------------------------
  // Dimming repaints the whole canvas with a veil after vis-network has drawn, then draws the kept
  // edges and nodes again on top: a highlight costs one redraw, however large the graph.
  var keptNodes = null, keptEdges = null, keptColor = null, labelKept = false;
  function highlight(keepNodes, keepEdge, edgeColor, first) {
    if (!keepNodes) { keptNodes = keptEdges = null; network.redraw(); return; }
    keptNodes = Array.from(keepNodes).sort(function (a, b) { return sizeOf[b] - sizeOf[a] || a - b; });
    if (first !== undefined) keptNodes = [first].concat(keptNodes.filter(function (k) { return k !== first; }));
    var indices = [];
    data.edges.forEach(function (e, j) { if (keepEdge(e)) indices.push(j); });
    keptEdges = bucketize(indices);
    keptColor = edgeColor || null;
    labelKept = keptNodes.length <= 150;
    network.redraw();
  }
  // Labels are drawn here rather than by vis-network, which would measure all of them up front:
  // only nodes inside the view whose text would be at least LABEL_MIN px on screen, biggest first,
  // and, as on a map, the LABEL_LEAD most prominent nodes at a readable size at any zoom (the
  // largest node of each community first, so every region is named). Labels never overlap.
  var FONT = "system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif", LABEL_MAX = 24, LABEL_FLOOR = 11;
  var LABEL_MIN = N <= 400 ? 0 : 10;  // small graphs: every label that finds room, at 11 px or more
  var LABEL_LEAD = 120;
  var bySize = data.nodes.map(function (n, k) { return k; })
    .sort(function (a, b) { return sizeOf[b] - sizeOf[a] || a - b; });
  var leaders = [], seenCommunity = new Set();
  bySize.forEach(function (k) {
    var c = data.nodes[k].community;
    if (!seenCommunity.has(c)) { seenCommunity.add(c); leaders.push(k); }
  });
  var labelOrder = leaders.concat(bySize.filter(function (k) { return leaders.indexOf(k) < 0; }));
  var drawnLabels = [];
  var fontOf = sizeOf.map(function (size, k) {  // community labels: one size, the disk shows the size
    return data.nodes[k].kind === "community" ? 13 : 9 + 15 * Math.max(0, Math.min(1, (size - 5) / 33));
  });
  function drawLabels(ctx, indices, minPx, limit, lead) {
    var scale = network.getScale(), taken = new Map(), CELL = 48, boxes = [];
    var topLeft = network.DOMtoCanvas({ x: -50, y: -20 });
    var bottomRight = network.DOMtoCanvas({ x: container.clientWidth + 50, y: container.clientHeight + 20 });
    function free(box, mark) {  // box in screen px: [left, top, right, bottom]; labels never overlap
      for (var cx = Math.floor(box[0] / CELL); cx <= Math.floor(box[2] / CELL); cx++) {
        for (var cy = Math.floor(box[1] / CELL); cy <= Math.floor(box[3] / CELL); cy++) {
          var list = taken.get(cx + "," + cy);
          if (mark) { if (!list) taken.set(cx + "," + cy, list = []); list.push(box); continue; }
          if (list) for (var i = 0; i < list.length; i++) {
            var o = list[i];
            if (box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3]) return false;
          }
        }
      }
      return true;
    }
    var drawn = 0, currentFont = null;
    ctx.save();
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#ffffff";
    ctx.fillStyle = "#1f2430";
    for (var i = 0; i < indices.length && drawn < limit; i++) {
      var k = indices[i], px = fontOf[k] * scale;
      if (px < minPx && i >= lead) continue;
      var node = body.nodes[k];
      if (!node || node.x < topLeft.x || node.x > bottomRight.x || node.y < topLeft.y || node.y > bottomRight.y) continue;
      var shown = Math.max(Math.min(px, LABEL_MAX), LABEL_FLOOR), size = shown / scale;
      var font = size.toFixed(3) + "px " + FONT;
      if (font !== currentFont) { ctx.font = font; ctx.lineWidth = size / 4; currentFont = font; }
      var text = data.nodes[k].label, y = node.y + sizeOf[k] + 2 / scale;
      var at = network.canvasToDOM({ x: node.x, y: y }), half = ctx.measureText(text).width * scale / 2;
      var box = [at.x - half, at.y, at.x + half, at.y + shown * 1.15];
      if (!free(box, false)) continue;
      free(box, true);
      ctx.strokeText(text, node.x, y);
      ctx.fillText(text, node.x, y);
      boxes.push({ node: k, px: Math.round(shown * 10) / 10, box: box.map(function (v) { return Math.round(v * 10) / 10; }) });
      drawn++;
    }
    ctx.restore();
    return boxes;
  }
  network.on("afterDrawing", function (ctx) {
    drawnLabels = drawLabels(ctx, labelOrder, LABEL_MIN, 600, LABEL_LEAD);
    if (!keptNodes) return;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "rgba(255,255,255,0.84)";
    ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    ctx.restore();
    drawEdges(ctx, keptEdges, keptColor);
    keptNodes.forEach(function (k) { var node = body.nodes[k]; if (node) node.draw(ctx); });
    // readable names for the kept nodes at any zoom (all of them when there are few)
    drawLabels(ctx, keptNodes, labelKept ? 0 : LABEL_MIN, 600, 0);
  });
  function neighbourhood(k) {
    var keep = new Set([k]);
    adj[k].forEach(function (pair) { keep.add(pair[0]); });
    return keep;
  }

  // ---- details panel, tooltip --------------------------------------------------------------
  function metaLine(info) {
    return [info.year, info.venue].filter(function (v) { return v !== null && v !== undefined && v !== ""; }).join(" · ");
  }
  function communityName(k) {
    for (var j = 0; j < data.legend.length; j++) if (data.legend[j].community === k) return data.legend[j].label;
    return "";
  }
  var byName = new Map();
  data.nodes.forEach(function (n, k) { byName.set(String(n.info.title).toLowerCase(), k); });

  var details = document.getElementById("kg-details");
  function communityDetails(n, info) {
    details.appendChild(el("p", "kg-meta", "Community " + n.community));
    details.appendChild(el("h3", null, info.title));
    details.appendChild(el("p", "kg-meta", info.papers + (info.papers === 1 ? " paper" : " papers")));
    details.appendChild(el("p", "kg-meta", "Top concepts"));
    var chips = el("div", "kg-chips");
    (info.concepts || []).forEach(function (name) { chips.appendChild(el("span", "kg-chip kg-static", name)); });
    details.appendChild(chips);
    details.appendChild(el("p", "kg-meta", "Most central papers"));
    var list = el("ol", "kg-papers");
    (info.central || []).forEach(function (p) {
      list.appendChild(el("li", null, p.title + (p.year !== null && p.year !== undefined ? " (" + p.year + ")" : "")));
    });
    details.appendChild(list);
    var more = el("p", "kg-meta", "All its papers and concepts: ");
    more.appendChild(el("code", null, "kg viz <build folder> --community " + n.community));
    details.appendChild(more);
  }
  function showDetails(k) {
    var n = data.nodes[k], info = n.info;
    details.replaceChildren();
    if (n.kind === "community") {
      communityDetails(n, info);
      appendNeighbours(k);
      details.hidden = false;
      return;
    }
    details.appendChild(el("p", "kg-meta", (n.kind === "paper" ? "Paper" : n.kind === "author" ? "Author" : "Concept") +
      (n.community >= 0 ? " · community " + n.community + ": " + communityName(n.community) : "")));
    details.appendChild(el("h3", null, info.title));
    if (n.kind === "paper") {
      var meta = metaLine(info);
      if (meta) details.appendChild(el("p", "kg-meta", meta));
      if (info.authors && info.authors.length) details.appendChild(el("p", "kg-meta", info.authors.join(", ")));
      if (info.concepts && info.concepts.length) {
        var chips = el("div", "kg-chips");
        info.concepts.forEach(function (name) {
          var chip = el("span", "kg-chip", name), target = byName.get(String(name).toLowerCase());
          if (target !== undefined) chip.addEventListener("click", function () { select(target, true); });
          chips.appendChild(chip);
        });
        details.appendChild(chips);
      }
      if (info.abstract) details.appendChild(el("p", null, info.abstract));
    } else {
      details.appendChild(el("p", "kg-meta", info.papers + (info.papers === 1 ? " paper" : " papers")));
      if (info.aliases && info.aliases.length) details.appendChild(el("p", null, "Also: " + info.aliases.join(", ")));
    }
    appendNeighbours(k);
    details.hidden = false;
  }
  function appendNeighbours(k) {
    var neighbours = adj[k].map(function (pair) { return pair[0]; })
      .sort(function (a, b) { return data.nodes[b].centrality - data.nodes[a].centrality; });
    if (!neighbours.length) {  // say why a node stands alone
      details.appendChild(el("p", "kg-meta", data.nodes[k].kind === "community"
        ? "Shown alone: no paper of it is related to, or cites, a paper of another community."
        : "Shown alone: none of its links lead to a node drawn in this view."));
      return;
    }
    details.appendChild(el("p", "kg-meta", neighbours.length + " neighbours" + (neighbours.length > 15 ? " (15 most central)" : "")));
    var list = el("div", "kg-chips");
    neighbours.slice(0, 15).forEach(function (m) {
      var chip = el("span", "kg-chip", data.nodes[m].label);
      chip.addEventListener("click", function () { select(m, true); });
      list.appendChild(chip);
    });
    details.appendChild(list);
  }

  var tooltip = document.getElementById("kg-tooltip"), mouse = { x: 0, y: 0 };
  container.addEventListener("mousemove", function (ev) { mouse.x = ev.clientX; mouse.y = ev.clientY; placeTooltip(); });
  function placeTooltip() {
    if (tooltip.hidden) return;
    var x = mouse.x + 14, y = mouse.y + 14, w = tooltip.offsetWidth, h = tooltip.offsetHeight;
    if (x + w > window.innerWidth - 8) x = Math.max(8, mouse.x - w - 14);
    if (y + h > window.innerHeight - 8) y = Math.max(8, mouse.y - h - 14);
    tooltip.style.left = x + "px";
    tooltip.style.top = y + "px";
  }
  function showTooltip(k) {
    var n = data.nodes[k], info = n.info;
    tooltip.replaceChildren();
    tooltip.appendChild(el("b", null, info.title));
    if (n.kind === "community") {
      tooltip.appendChild(el("div", "kg-meta", "Community " + n.community + " · " + info.papers + " papers"));
      if (info.concepts && info.concepts.length) tooltip.appendChild(el("div", "kg-meta", "Concepts: " + info.concepts.slice(0, 8).join(", ")));
    } else if (n.kind === "paper") {
      var meta = metaLine(info);
      if (meta) tooltip.appendChild(el("div", "kg-meta", meta));
      if (info.concepts && info.concepts.length) tooltip.appendChild(el("div", "kg-meta", "Concepts: " + info.concepts.join(", ")));
      if (info.abstract) tooltip.appendChild(el("div", "kg-abstract", info.abstract));
    } else {
      tooltip.appendChild(el("div", "kg-meta", info.papers + (info.papers === 1 ? " paper" : " papers")));
      if (info.aliases && info.aliases.length) tooltip.appendChild(el("div", "kg-meta", "Also: " + info.aliases.join(", ")));
    }
    tooltip.hidden = false;
    placeTooltip();
  }
  network.on("hoverNode", function (p) { showTooltip(p.node); });
  network.on("blurNode", function () { tooltip.hidden = true; });
  network.on("dragStart", function () { tooltip.hidden = true; });
  network.on("zoom", function () { tooltip.hidden = true; });

  // ---- selection ---------------------------------------------------------------------------
  var activeCommunity = null;
  function clearSelection() {
    network.unselectAll();
    highlight(null);
    details.hidden = true;
    setActiveCommunity(null);
  }
  function select(k, zoom) {
    setActiveCommunity(null);
    network.selectNodes([k]);
    highlight(neighbourhood(k), function (e) { return e[0] === k || e[1] === k; }, HIGHLIGHT, k);
    showDetails(k);
    if (zoom) {  // centre on the node, zoomed so that its neighbours fit around it
      var at = network.getPosition(k), reach = 0;
      adj[k].forEach(function (pair) {
        var p = body.nodes[pair[0]];
        reach = Math.max(reach, Math.hypot(p.x - at.x, p.y - at.y));
      });
      var room = 0.42 * Math.min(container.clientWidth, container.clientHeight);
      var scale = Math.max(0.5, Math.min(1.5, reach ? room / reach : 1.5));
      // vis animates frame by frame, so on big graphs (slow frames) jump instead
      network.moveTo({ position: at, scale: scale,
                       animation: N > 2000 ? false : { duration: 450, easingFunction: "easeInOutQuad" } });
    }
  }
  network.on("click", function (p) {
    if (p.nodes.length) select(p.nodes[0], false);
    else clearSelection();
  });

  // ---- legend ------------------------------------------------------------------------------
  var legendItems = [];
  function setActiveCommunity(k) {
    activeCommunity = k;
    legendItems.forEach(function (item) { item.li.classList.toggle("kg-active", item.community === k); });
  }
  var legendList = document.getElementById("kg-communities");
  data.legend.forEach(function (entry) {
    var li = el("li"), swatch = el("span", "kg-swatch");
    swatch.style.background = entry.color;
    li.appendChild(swatch);
    var name = el("span", "kg-name", entry.community >= 0 ? entry.community + " · " + entry.label : entry.label);
    name.title = entry.label;
    li.appendChild(name);
    li.appendChild(el("span", "kg-count", entry.count));
    li.addEventListener("click", function () {
      if (activeCommunity === entry.community) { clearSelection(); return; }
      network.unselectAll();
      details.hidden = true;
      var keep = new Set();
      data.nodes.forEach(function (n, k) { if (n.community === entry.community) keep.add(k); });
      highlight(keep, function (e) { return keep.has(e[0]) && keep.has(e[1]); });
      setActiveCommunity(entry.community);
    });
    legendItems.push({ li: li, community: entry.community });
    legendList.appendChild(li);
  });
  ["paper", "concept", "community"].forEach(function (kind) {
    if (data.nodes.every(function (n) { return n.kind !== kind; })) document.querySelector(".kg-shape-" + kind).parentNode.hidden = true;
  });
  if (!data.edges.some(function (e) { return e[3]; })) document.querySelector(".kg-cites").parentNode.hidden = true;

  // ---- search ------------------------------------------------------------------------------
  var haystack = data.nodes.map(function (n) {
    return [n.label, n.info.title].concat(n.info.aliases || []).join("\n").toLowerCase();
  });
  function search(query) {
    var q = String(query || "").trim().toLowerCase();
    if (!q) return [];
    var hits = [];
    for (var k = 0; k < N; k++) {
      var at = haystack[k].indexOf(q);
      if (at < 0) continue;
      var rank = at === 0 ? 0 : (/[\s\-(\n]/.test(haystack[k].charAt(at - 1)) ? 1 : 2);
      hits.push([rank, -data.nodes[k].centrality, k]);
    }
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
    return hits.slice(0, 12).map(function (h) { return h[2]; });
  }
  var input = document.getElementById("kg-search"), results = document.getElementById("kg-results");
  var current = [], active = -1;
  function renderResults() {
    results.replaceChildren();
    if (!input.value.trim()) { results.hidden = true; return; }
    if (!current.length) {
      results.appendChild(el("li", "kg-empty", "no match"));
    }
    current.forEach(function (k, pos) {
      var li = el("li");
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", pos === active ? "true" : "false");
      li.appendChild(el("span", null, data.nodes[k].info.title));
      li.appendChild(el("span", "kg-kind", data.nodes[k].kind));
      li.addEventListener("mousedown", function (ev) { ev.preventDefault(); choose(k); });
      results.appendChild(li);
    });
    results.hidden = false;
  }
  function choose(k) {
    results.hidden = true;
    input.value = data.nodes[k].info.title;
    select(k, true);
  }
  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { current = search(input.value); active = current.length ? 0 : -1; renderResults(); }, 60);
  });
  input.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      if (!current.length) return;
      active = (active + (ev.key === "ArrowDown" ? 1 : current.length - 1)) % current.length;
      renderResults();
      ev.preventDefault();
    } else if (ev.key === "Enter") {
      clearTimeout(timer);
      var fresh = search(input.value);  // the list shown may be of an earlier query (typed < 60 ms ago)
      if (fresh.join("\u0000") !== current.join("\u0000")) active = 0;
      current = fresh;
      if (current.length) choose(current[Math.min(Math.max(active, 0), current.length - 1)]);
      ev.preventDefault();
    } else if (ev.key === "Escape") {
      input.value = ""; current = []; renderResults(); clearSelection(); input.blur();
    }
  });
  input.addEventListener("blur", function () { results.hidden = true; });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== input) { ev.preventDefault(); input.focus(); input.select(); }
    else if (ev.key === "Escape" && document.activeElement !== input) clearSelection();
  });

  // ---- caption, ready ----------------------------------------------------------------------
  var c = data.counts;
  document.getElementById("kg-caption").textContent = [
    c.communities ? c.communities + " communities" : null,
    c.papers ? c.papers + " papers" : null, c.concepts ? c.concepts + " concepts" : null, c.edges + " edges",
    "view: " + data.view, "size: " + data.size_by,
    data.left_out ? data.left_out.communities + " communities (" + data.left_out.papers +
      " papers) linked to no other not shown" : null
  ].filter(Boolean).join(" · ");

  window.kg = { network: network, nodes: nodes, edges: edges, data: data, search: search, select: select,
                clear: clearSelection, ready: null, timing: timing,
                labels: function () { return drawnLabels.slice(); },
                highlighted: function () { return keptNodes ? keptNodes.slice().sort(function (a, b) { return a - b; }) : null; } };
  network.once("afterDrawing", function () {
    document.getElementById("kg-loading").hidden = true;
    if (data.focus !== null && data.focus !== undefined) select(data.focus, false);
    window.kg.ready = timing.drawn = performance.now();
    document.body.setAttribute("data-ready", "1");
  });
  network.fit({ animation: false });
})();
