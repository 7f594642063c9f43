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
  var PREDICTED = "rgba(31,150,90,0.9)";  // a link kg forecast predicts (e[3] === 2), drawn dashed

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function colorOf(k) { return k < 0 ? data.none_color : k < data.palette.length ? data.palette[k] : data.other_color; }
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
      var e = data.edges[j], key = (e[3] || 0) + "|" + (Math.round(e[2] * 2) / 2);
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
      ctx.strokeStyle = color || (parts[0] === "1" ? CITE : parts[0] === "2" ? PREDICTED : EDGE);
      ctx.lineWidth = Math.max(Number(parts[1]), 0.5 / scale);
      ctx.setLineDash(parts[0] === "2" ? [6 / scale, 4 / scale] : []);
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
  // Every community disc shows its number inside, whatever room its label finds (the legend
  // and the label below name it).
  var discs = [], drawnDiscs = [];
  data.nodes.forEach(function (n, k) { if (n.kind === "community") discs.push(k); });
  function drawDiscNumbers(ctx) {
    var scale = network.getScale(), out = [];
    ctx.save();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    discs.forEach(function (k) {
      var node = body.nodes[k];
      if (!node) return;
      var px = Math.max(10, Math.min(18, sizeOf[k] * scale * 0.7)), size = px / scale;
      ctx.font = "bold " + size.toFixed(3) + "px " + FONT;
      ctx.lineWidth = size / 4;
      ctx.strokeStyle = "rgba(255,255,255,0.9)";
      ctx.fillStyle = "#1f2430";
      var text = String(data.nodes[k].community);
      ctx.strokeText(text, node.x, node.y);
      ctx.fillText(text, node.x, node.y);
      out.push({ node: k, text: text, px: Math.round(px * 10) / 10 });
    });
    ctx.restore();
    return out;
  }
  network.on("afterDrawing", function (ctx) {
    drawnLabels = drawLabels(ctx, labelOrder, LABEL_MIN, 600, LABEL_LEAD);
    drawnDiscs = drawDiscNumbers(ctx);
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
  function safeLink(url) {  // only web addresses are linked: http, https (a DOI as https://doi.org/)
    return typeof url === "string" && /^https?:\/\/[^\s\/]+/i.test(url) ? url : null;
  }
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
      var href = safeLink(info.link);
      if (href) {
        var link = el("a", "kg-link", href.indexOf("https://doi.org/") === 0 ? "DOI: " + href.slice(16) : href);
        link.href = href;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        details.appendChild(el("p")).appendChild(link);
      }
    } else {
      details.appendChild(el("p", "kg-meta", info.papers + (info.papers === 1 ? " paper" : " papers")));
      if (info.aliases && info.aliases.length) details.appendChild(el("p", null, "Also: " + info.aliases.join(", ")));
      if (info.meets && info.meets.length) {
        details.appendChild(el("p", "kg-meta", "Likely to meet next (kg forecast)"));
        var meets = el("ul", "kg-meets");
        info.meets.forEach(function (line) { meets.appendChild(el("li", null, line)); });
        details.appendChild(meets);
      }
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
    details.hidden = true;
    setActiveCommunity(null);
    if (yearKeep) highlight(yearKeep, function (e) { return yearKeep.has(e[0]) && yearKeep.has(e[1]); });
    else highlight(null);
  }
  function resetView() {  // back to the overview: nothing selected, the whole view in sight
    clearSelection();
    network.fit({ animation: false });
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
    var numbered = typeof entry.community === "number" && entry.community >= 0;
    var name = el("span", "kg-name", numbered ? entry.community + " · " + entry.label : entry.label);
    name.title = entry.label;
    li.appendChild(name);
    var count = el("span", "kg-count", entry.count);
    count.title = entry.community === -1 ? "nodes shown" : "papers in the community (the build's analysis)";
    li.appendChild(count);
    li.addEventListener("click", function () {
      if (activeCommunity === entry.community) { clearSelection(); return; }
      network.unselectAll();
      details.hidden = true;
      var members = new Set(entry.members), keep = new Set();
      data.nodes.forEach(function (n, k) { if (members.has(n.community)) keep.add(k); });
      highlight(keep, function (e) { return keep.has(e[0]) && keep.has(e[1]); });
      setActiveCommunity(entry.community);
      if (keep.size) network.fit({ nodes: Array.from(keep), animation: false });  // in sight, not off screen
    });
    legendItems.push({ li: li, community: entry.community });
    legendList.appendChild(li);
  });
  ["paper", "concept", "community"].forEach(function (kind) {
    if (data.nodes.every(function (n) { return n.kind !== kind; })) document.querySelector(".kg-shape-" + kind).parentNode.hidden = true;
  });
  if (!data.edges.some(function (e) { return e[3] === 1; })) document.querySelector(".kg-cites").parentNode.hidden = true;
  if (!data.edges.some(function (e) { return e[3] === 2; })) document.querySelector(".kg-predicted").parentNode.hidden = true;

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
      input.value = ""; current = []; renderResults(); resetView(); input.blur();
    }
  });
  input.addEventListener("blur", function () { results.hidden = true; });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== input) { ev.preventDefault(); input.focus(); input.select(); }
    else if (ev.key === "Escape" && document.activeElement !== input) resetView();
  });
  document.getElementById("kg-fit").addEventListener("click", resetView);

  // ---- year range --------------------------------------------------------------------------
  // Papers outside the range are dimmed with everything linked only to them; concepts and
  // authors stay while a paper of theirs is in the range.
  var yearKeep = null, years = [];
  data.nodes.forEach(function (n) { if (n.kind === "paper" && typeof n.info.year === "number") years.push(n.info.year); });
  var yearFrom = document.getElementById("kg-year-from"), yearTo = document.getElementById("kg-year-to");
  var minYear = years.length ? Math.min.apply(null, years) : null, maxYear = years.length ? Math.max.apply(null, years) : null;
  if (minYear === null || minYear === maxYear) {
    document.getElementById("kg-years").hidden = true;
  } else {
    [yearFrom, yearTo].forEach(function (box) { box.min = minYear; box.max = maxYear; });
    yearFrom.value = minYear;
    yearTo.value = maxYear;
  }
  function setYears(from, to) {
    from = Number(from); to = Number(to);
    if (!isFinite(from)) from = minYear;
    if (!isFinite(to)) to = maxYear;
    if (from > to) { var t = from; from = to; to = t; }
    yearFrom.value = from; yearTo.value = to;
    var note = document.getElementById("kg-year-note");
    if (from <= minYear && to >= maxYear) {
      yearKeep = null; note.textContent = "";
    } else {
      var keep = new Set(), papers = 0;
      data.nodes.forEach(function (n, k) {
        if (n.kind === "paper" && typeof n.info.year === "number" && n.info.year >= from && n.info.year <= to) { keep.add(k); papers++; }
      });
      data.nodes.forEach(function (n, k) {
        if (n.kind !== "paper" && adj[k].some(function (pair) { return keep.has(pair[0]) && data.nodes[pair[0]].kind === "paper"; })) keep.add(k);
      });
      yearKeep = keep;
      note.textContent = papers + " papers from " + from + " to " + to;
    }
    clearSelection();
  }
  [yearFrom, yearTo].forEach(function (box) { box.addEventListener("change", function () { setYears(yearFrom.value, yearTo.value); }); });

  // ---- export ------------------------------------------------------------------------------
  // PNG: the canvas as drawn. SVG: the nodes, edges and labels in sight, built as DOM nodes
  // (corpus text as text nodes) and serialised, so it opens in any editor.
  function exportPNG() { return network.canvas.frame.canvas.toDataURL("image/png"); }
  function exportSVG() {
    var NS = "http://www.w3.org/2000/svg", w = container.clientWidth, h = container.clientHeight;
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("xmlns", NS);
    svg.setAttribute("width", w); svg.setAttribute("height", h);
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("font-family", "sans-serif");
    function add(parent, tag, attrs, text) {
      var node = document.createElementNS(NS, tag);
      Object.keys(attrs).forEach(function (a) { node.setAttribute(a, attrs[a]); });
      if (text !== undefined) node.textContent = text;
      parent.appendChild(node);
      return node;
    }
    add(svg, "rect", { x: 0, y: 0, width: w, height: h, fill: "#ffffff" });
    var scale = network.getScale(), kept = keptNodes ? new Set(keptNodes) : null;
    function at(k) { return network.canvasToDOM({ x: body.nodes[k].x, y: body.nodes[k].y }); }
    function inside(p, r) { return p.x + r >= 0 && p.x - r <= w && p.y + r >= 0 && p.y - r <= h; }
    var lines = add(svg, "g", { "stroke-linecap": "round", fill: "none" });
    data.edges.forEach(function (e) {
      var a = at(e[0]), b = at(e[1]);
      if (!inside(a, 0) && !inside(b, 0)) return;
      var on = !kept || (kept.has(e[0]) && kept.has(e[1]));
      add(lines, "line", { x1: a.x.toFixed(1), y1: a.y.toFixed(1), x2: b.x.toFixed(1), y2: b.y.toFixed(1),
        stroke: e[3] === 2 ? "#1f965a" : e[3] ? "#c0504d" : "#6e788c", "stroke-opacity": on ? (e[3] ? 0.55 : 0.3) : 0.06,
        "stroke-dasharray": e[3] === 2 ? "6 4" : "none",
        "stroke-width": Math.max(e[2] * scale, 0.5).toFixed(2) });
    });
    var shapes = add(svg, "g", {}), count = 0;
    data.nodes.forEach(function (n, k) {
      var p = at(k), r = sizeOf[k] * scale, c = colorOf(n.community);
      if (!inside(p, r)) return;
      var fill = n.kind === "paper" ? c : mix(c, "white", n.kind === "community" ? 0.15 : 0.55);
      var attrs = { fill: fill, stroke: n.kind === "concept" ? c : mix(c, "black", 0.3), "stroke-width": 1,
                    opacity: !kept || kept.has(k) ? 1 : 0.16, "data-node": n.id };
      var shape = n.kind === "paper"
        ? add(shapes, "rect", Object.assign({ x: (p.x - r).toFixed(1), y: (p.y - r).toFixed(1), width: (2 * r).toFixed(1), height: (2 * r).toFixed(1) }, attrs))
        : add(shapes, "circle", Object.assign({ cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: r.toFixed(1) }, attrs));
      add(shape, "title", {}, n.info.title);
      count++;
    });
    var texts = add(svg, "g", { fill: "#1f2430", stroke: "#ffffff", "stroke-width": 3, "paint-order": "stroke",
                                "text-anchor": "middle" });
    drawnLabels.forEach(function (label) {
      add(texts, "text", { x: ((label.box[0] + label.box[2]) / 2).toFixed(1), y: (label.box[1] + label.px).toFixed(1),
                           "font-size": label.px }, data.nodes[label.node].label);
    });
    drawnDiscs.forEach(function (disc) {
      var p = at(disc.node);
      add(texts, "text", { x: p.x.toFixed(1), y: (p.y + disc.px / 3).toFixed(1), "font-size": disc.px, "font-weight": "bold" }, disc.text);
    });
    return new XMLSerializer().serializeToString(svg);
  }
  function download(name, href) {
    var a = el("a");
    a.href = href;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  document.getElementById("kg-png").addEventListener("click", function () { download("kg-" + data.view + ".png", exportPNG()); });
  document.getElementById("kg-svg").addEventListener("click", function () {
    download("kg-" + data.view + ".svg", "data:image/svg+xml;charset=utf-8," + encodeURIComponent(exportSVG()));
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
                clear: clearSelection, reset: resetView, setYears: setYears, exportPNG: exportPNG, exportSVG: exportSVG,
                ready: null, timing: timing, discs: function () { return drawnDiscs.slice(); },
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
