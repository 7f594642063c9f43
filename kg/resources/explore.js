/* kg serve: the explorer page. One view at a time, named by the address (?paper=ID, ?concept=ID,
 * ?community=N, nothing for the overview; from/to for the years), so links, back and forward work.
 * Data comes from this server's /api only; corpus text reaches the document through textContent
 * (and canvas text) only, and only http(s) addresses become links. */
(function () {
  "use strict";
  var meta = JSON.parse(document.getElementById("x-meta").textContent);
  // The community colours of kg's graph page (kg/export/html.py PALETTE), so a community looks the same in both.
  var PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                 "#9c755f", "#17becf", "#bcbd22", "#8c6d31", "#637939", "#d6616b", "#7b4173", "#3182bd",
                 "#e6550d", "#31a354", "#843c39", "#5254a3"];
  var OTHER = "#a0a0a0", NONE = "#d9d9d9", CONCEPT = "#f2a541";
  var graphBox = document.getElementById("x-graph"), side = document.getElementById("x-side");
  var crumbs = document.getElementById("x-crumbs"), status = document.getElementById("x-status");
  var network = null, rendering = 0;
  var kgx = window.kgx = { ready: null, state: null, data: null, network: null, palette: PALETTE, requests: 0 };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function colorOf(k) { return k === null || k === undefined || k < 0 ? NONE : k < PALETTE.length ? PALETTE[k] : OTHER; }
  function safeLink(url) { return typeof url === "string" && /^https?:\/\/[^\s\/?#]+/i.test(url) ? url : null; }
  function short(text, n) { text = String(text || ""); return text.length <= n ? text : text.slice(0, n - 1).trimEnd() + "…"; }
  function plural(n, word) { return n + " " + (n === 1 ? word : word === "community" ? "communities" : word + "s"); }

  // ---- the address: state <-> URL ---------------------------------------------------------------
  function yearOf(text) { var n = parseInt(text, 10); return isFinite(n) && /^-?\d+$/.test(String(text).trim()) ? n : null; }
  function readState() {
    var q = new URLSearchParams(location.search), s = { view: "communities", id: null,
      from: yearOf(q.get("from") || ""), to: yearOf(q.get("to") || "") };
    if (q.has("paper")) { s.view = "paper"; s.id = q.get("paper"); }
    else if (q.has("concept")) { s.view = "concept"; s.id = q.get("concept"); }
    else if (q.has("community")) { s.view = "community"; s.id = q.get("community"); }
    return s;
  }
  function urlOf(s) {
    var q = new URLSearchParams();
    if (s.view !== "communities" && s.id !== null && s.id !== undefined) q.set(s.view, String(s.id));
    if (s.from !== null && s.from !== undefined) q.set("from", s.from);
    if (s.to !== null && s.to !== undefined) q.set("to", s.to);
    var text = q.toString();
    return "/" + (text ? "?" + text : "");
  }
  function go(s) { history.pushState(null, "", urlOf(s)); render(); }
  function within(s) { return { from: kgx.state.from, to: kgx.state.to, view: s.view, id: s.id }; }
  function link(text, target, cls) {  // a real link (new tab works); a plain click stays in the page
    var a = el("a", cls, text);
    a.href = urlOf(within(target));
    a.addEventListener("click", function (ev) {
      if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      go(within(target));
    });
    return a;
  }
  window.addEventListener("popstate", function () { render(); });

  // ---- the API ------------------------------------------------------------------------------------
  function api(path, params) {
    var q = new URLSearchParams();
    Object.keys(params || {}).forEach(function (k) {
      if (params[k] !== null && params[k] !== undefined && params[k] !== "") q.set(k, params[k]);
    });
    kgx.requests++;
    return fetch("/api/" + path + "?" + q.toString(), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.json().then(function (data) {
        if (!r.ok) throw new Error(data && data.error ? data.error : "HTTP " + r.status);
        return data;
      }); });
  }
  function years(s) { return { from: s.from, to: s.to }; }

  // ---- the year range -----------------------------------------------------------------------------
  var yearFrom = document.getElementById("x-year-from"), yearTo = document.getElementById("x-year-to");
  if (meta.years.min !== null) {
    [yearFrom, yearTo].forEach(function (box) { box.min = meta.years.min; box.max = meta.years.max; });
    yearFrom.placeholder = meta.years.min; yearTo.placeholder = meta.years.max;
  } else {
    document.getElementById("x-years").hidden = true;
  }
  document.getElementById("x-years").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var s = readState(), a = yearOf(yearFrom.value), b = yearOf(yearTo.value);
    if (a !== null && b !== null && a > b) { var t = a; a = b; b = t; }
    s.from = a; s.to = b;
    go(s);
  });
  document.getElementById("x-year-all").addEventListener("click", function () {
    var s = readState(); s.from = s.to = null; go(s);
  });
  function rangeText(s) {
    if (s.from === null && s.to === null) return "";
    return (s.from === null ? "…" : s.from) + "–" + (s.to === null ? "…" : s.to);
  }

  // ---- breadcrumbs: the way back to the overview, always in sight --------------------------------
  function setCrumbs(parts) {
    crumbs.replaceChildren();
    crumbs.appendChild(link("All communities", { view: "communities", id: null }, "x-crumb x-overview"));
    parts.forEach(function (part) {
      crumbs.appendChild(el("span", "x-sep", "›"));
      crumbs.appendChild(part.target ? link(part.text, part.target, "x-crumb") : el("span", "x-crumb x-here", part.text));
    });
    var range = rangeText(kgx.state);
    if (range) crumbs.appendChild(el("span", "x-range", "years " + range));
  }

  // ---- drawing ------------------------------------------------------------------------------------
  function yearColor(year, lo, hi) {  // Connected-Papers-style: older light, newer dark
    if (typeof year !== "number") return "#cfd4dc";
    var t = hi > lo ? (year - lo) / (hi - lo) : 1, a = [214, 228, 246], b = [31, 78, 156];
    return "rgb(" + a.map(function (c, i) { return Math.round(c + (b[i] - c) * t); }).join(",") + ")";
  }
  function tip(lines) {  // vis-network shows an element as it is: text only
    var box = el("div", "x-tip");
    lines.forEach(function (line, i) { if (line) box.appendChild(el(i ? "div" : "b", i ? "x-meta" : null, line)); });
    return box;
  }
  var legend = document.getElementById("x-legend");
  function draw(graph, options) {
    if (network) { network.destroy(); network = null; }
    graphBox.replaceChildren();
    var ys = graph.nodes.filter(function (n) { return typeof n.year === "number"; }).map(function (n) { return n.year; });
    var lo = ys.length ? Math.min.apply(null, ys) : 0, hi = ys.length ? Math.max.apply(null, ys) : 0;
    legend.replaceChildren();
    legend.hidden = !(options && options.legend);
    if (options && options.legend) {
      if (ys.length) {
        legend.appendChild(el("span", "x-ramp-end", lo));
        legend.appendChild(el("span", "x-ramp"));
        legend.appendChild(el("span", "x-ramp-end", hi + " (darker: newer) · "));
      }
      legend.appendChild(document.createTextNode(options.legend));
    }
    if (!graph.nodes.length) { kgx.network = null; return Promise.resolve(); }
    var tops = {};  // the heaviest node of each kind sets that kind's scale
    graph.nodes.forEach(function (n) { tops[n.kind] = Math.max(tops[n.kind] || 1e-9, n.weight || 0); });
    // Papers are named on the drawing when they are the centre or among the strongest (LABELLED of them);
    // the others show their title on hover (and in the list beside).
    var LABELLED = 10, named = {};
    graph.nodes.map(function (n, k) { return k; }).filter(function (k) { return graph.nodes[k].kind === "paper"; })
      .sort(function (a, b) { return (graph.nodes[b].centre ? 1 : 0) - (graph.nodes[a].centre ? 1 : 0) ||
                                     (graph.nodes[b].weight || 0) - (graph.nodes[a].weight || 0) || a - b; })
      .slice(0, LABELLED).forEach(function (k) { named[k] = true; });
    var nodes = graph.nodes.map(function (n, k) {
      var top = tops[n.kind];
      var item = { id: k, label: n.kind !== "paper" || named[k] ? short(n.label, 40) : undefined,
                   font: { size: n.kind === "concept" ? 12 : 13, color: "#1f2430", strokeWidth: 3, strokeColor: "#fff" } };
      if (n.kind === "community") {
        item.shape = "dot"; item.size = 12 + 40 * Math.sqrt(n.weight / top); item.color = colorOf(n.community);
        item.title = tip([n.label, plural(n.size, "paper") + (n.in_range !== n.size ? " (" + n.in_range + " in the years)" : "")]);
      } else if (n.kind === "concept") {
        item.shape = "dot"; item.size = 6 + 8 * Math.sqrt((n.weight || 1) / top); item.color = { background: "#fde6c4", border: CONCEPT };
        item.font.color = "#7a4a00"; item.title = tip([n.label, "concept"]);
      } else {
        item.shape = "dot"; item.size = n.centre ? 26 : 8 + 16 * Math.sqrt((n.weight || 0) / top);
        item.color = { background: yearColor(n.year, lo, hi), border: n.centre ? "#111" : "#4b5563" };
        item.borderWidth = n.centre ? 4 : 1;
        item.title = tip([n.label, n.year === null || n.year === undefined ? "year unknown" : String(n.year)]);
      }
      return item;
    });
    var maxW = Math.max.apply(null, graph.edges.filter(function (e) { return e[3] !== "cites" && e[3] !== "mentions"; })
      .map(function (e) { return e[2]; }).concat([1e-9]));
    var edges = graph.edges.map(function (e) {
      var color = e[3] === "mentions" ? "rgba(242,165,65,0.55)" : e[3] === "cites" ? "rgba(192,80,77,0.6)" : "rgba(110,120,140,0.45)";
      return { from: e[0], to: e[1], width: e[3] === "mentions" || e[3] === "cites" ? 1.2 : 0.5 + 4 * Math.sqrt(e[2] / maxW),
               dashes: e[3] === "mentions", arrows: e[3] === "cites" ? "to" : undefined, color: { color: color } };
    });
    network = kgx.network = new vis.Network(graphBox, { nodes: new vis.DataSet(nodes), edges: new vis.DataSet(edges) }, {
      autoResize: true,
      layout: { randomSeed: 7, improvedLayout: nodes.length <= 100 },
      physics: { solver: "forceAtlas2Based", stabilization: { iterations: 300, fit: true },
                 forceAtlas2Based: { gravitationalConstant: -140, centralGravity: 0.008, avoidOverlap: 0.6,
                                     springLength: options && options.spring || 200 } },
      interaction: { hover: true, tooltipDelay: 120, keyboard: false },
      edges: { smooth: false }
    });
    network.on("click", function (p) {
      if (!p.nodes.length) return;
      var n = graph.nodes[p.nodes[0]];
      if (n.kind === "community") go(within({ view: "community", id: n.community }));
      else if (n.kind === "concept") go(within({ view: "concept", id: n.id }));
      else if (!n.centre) go(within({ view: "paper", id: n.id }));
    });
    var drawn = network;
    return new Promise(function (resolve) {
      var done = false;
      function settle() {  // the layout is final: physics off, the whole drawing in sight
        if (done) return;
        done = true;
        if (drawn === network) { network.setOptions({ physics: false }); network.fit({ maxZoomLevel: 1.5 }); }
        resolve();
      }
      network.once("stabilizationIterationsDone", settle);
      setTimeout(settle, 5000);
    });
  }

  // ---- side panel pieces --------------------------------------------------------------------------
  function heading(kind, title) {
    side.appendChild(el("p", "x-kind", kind));
    side.appendChild(el("h2", null, title));
  }
  function section(title) { side.appendChild(el("h3", null, title)); }
  function paperList(papers, empty) {
    if (!papers.length) { side.appendChild(el("p", "x-meta", empty)); return; }
    var list = el("ol", "x-papers");
    papers.forEach(function (p) {
      var li = el("li");
      li.appendChild(link(p.title, { view: "paper", id: p.id }));
      if (p.year !== null && p.year !== undefined) li.appendChild(el("span", "x-year", " " + p.year));
      list.appendChild(li);
    });
    side.appendChild(list);
  }
  function chips(items, target, count) {
    var box = el("div", "x-chips");
    items.forEach(function (c) {
      var chip = link(c.name, target(c), "x-chip");
      if (count && count(c) !== undefined) chip.appendChild(el("span", "x-count", " " + count(c)));
      box.appendChild(chip);
    });
    side.appendChild(box);
  }
  function yearBars(counts, s) {  // papers per year; the years in the range dark
    var box = el("div", "x-bars"), top = Math.max.apply(null, counts.map(function (c) { return c[1]; }).concat([1]));
    counts.forEach(function (c) {
      var inside = (s.from === null || c[0] >= s.from) && (s.to === null || c[0] <= s.to);
      var bar = el("div", "x-bar" + (inside ? "" : " x-out"));
      bar.style.height = Math.max(2, Math.round(60 * c[1] / top)) + "px";
      bar.title = c[0] + ": " + plural(c[1], "paper");
      bar.setAttribute("data-year", c[0]);
      box.appendChild(bar);
    });
    side.appendChild(box);
    if (counts.length) {
      var axis = el("div", "x-axis");
      axis.appendChild(el("span", null, counts[0][0]));
      axis.appendChild(el("span", null, counts[counts.length - 1][0]));
      side.appendChild(axis);
    }
  }

  // ---- the views ----------------------------------------------------------------------------------
  function overview(s, data) {
    setCrumbs([]);
    heading("Overview", plural(data.communities.length, "community"));
    side.appendChild(el("p", "x-meta", meta.papers + " papers · " + meta.concepts + " concepts" +
      (rangeText(s) ? " · sizes: papers from " + rangeText(s) : "")));
    var list = el("ul", "x-communities");
    data.communities.forEach(function (c) {
      var li = el("li"), swatch = el("span", "x-swatch");
      swatch.style.background = colorOf(c.id);
      li.appendChild(swatch);
      li.appendChild(link(c.id + " · " + c.label, { view: "community", id: c.id }, "x-name"));
      li.appendChild(el("span", "x-count", rangeText(s) ? c.in_range + " / " + c.size : c.size));
      list.appendChild(li);
    });
    side.appendChild(list);
    var at = {}, nodes = data.communities.map(function (c, k) {
      at[c.id] = k;
      return { id: "community:" + c.id, kind: "community", label: c.id + " · " + c.label, community: c.id, size: c.size,
               in_range: c.in_range, weight: rangeText(s) ? c.in_range : c.size, year: null };
    });
    var edges = data.links.filter(function (l) { return l[0] in at && l[1] in at; })
      .map(function (l) { return [at[l[0]], at[l[1]], l[2], "related"]; });
    return draw({ nodes: nodes, edges: edges }, { spring: 260, legend:
      "Each disc is a community, sized by its papers" + (rangeText(s) ? " in the years" : "") +
      "; lines: the related links between them. Click one to open it." });
  }
  function communityName(c) { return "Community " + c.id + " · " + c.label; }
  // A paper's or a concept's crumbs (its community, a link, then itself) and heading.
  function titled(kind, name, community) {
    var parts = [];
    if (community) parts.push({ text: communityName(community), target: { view: "community", id: community.id } });
    parts.push({ text: short(name, 60) });
    setCrumbs(parts);
    heading(kind, name);
  }
  // The way back to the community of a paper or a concept (none when it has none).
  function backTo(community) {
    if (community) side.appendChild(link("← " + communityName(community), { view: "community", id: community.id }, "x-back"));
  }
  function community(s, data) {
    var c = data.community;
    setCrumbs([{ text: communityName(c) }]);
    heading("Community " + c.id, c.label);
    side.appendChild(el("p", "x-meta", plural(c.size, "paper") + (rangeText(s) ? " · " + c.in_range + " from " + rangeText(s) : "")));
    side.appendChild(link("← All communities", { view: "communities", id: null }, "x-back"));
    section("Papers per year");
    yearBars(c.years || [], s);
    section("Top concepts");
    chips(c.concepts || [], function (x) { return { view: "concept", id: x.id }; });
    section("Most central papers" + (rangeText(s) ? " (" + rangeText(s) + ")" : ""));
    paperList(data.papers, "No paper of this community in these years.");
    return draw(data.graph, { legend: "Its most central papers (bigger: more central); lines: related links, " +
      "red arrows: citations. Click a paper to open it." });
  }
  function paper(s, data) {
    var p = data.paper;
    titled("Paper", p.title, p.community);
    var line = [p.year, p.venue].filter(function (v) { return v !== null && v !== undefined && v !== ""; }).join(" · ");
    if (line) side.appendChild(el("p", "x-meta", line));
    if (p.authors && p.authors.length) side.appendChild(el("p", "x-meta", p.authors.slice(0, 8).join(", ") + (p.authors.length > 8 ? ", et al." : "")));
    var href = safeLink(p.link);
    if (href) {
      var a = el("a", "x-link", href.indexOf("https://doi.org/") === 0 ? "DOI: " + href.slice(16) : href);
      a.href = href; a.target = "_blank"; a.rel = "noopener noreferrer";
      side.appendChild(el("p")).appendChild(a);
    }
    backTo(p.community);
    if (p.abstract) side.appendChild(el("p", "x-abstract", p.abstract));
    section("Concepts");
    chips(p.concepts || [], function (x) { return { view: "concept", id: x.id }; });
    section("Related papers" + (rangeText(s) ? " (" + rangeText(s) + ")" : ""));
    if (!data.related.length) side.appendChild(el("p", "x-meta", "No related paper in these years."));
    var list = el("ol", "x-papers");
    data.related.forEach(function (r) {
      var li = el("li");
      li.appendChild(link(r.title, { view: "paper", id: r.id }));
      if (r.year !== null && r.year !== undefined) li.appendChild(el("span", "x-year", " " + r.year));
      if (r.shared && r.shared.length) li.appendChild(el("div", "x-meta", "shares " + r.shared.map(function (c) { return c.name; }).join(", ")));
      list.appendChild(li);
    });
    side.appendChild(list);
    return draw(data.graph, { legend: "Ringed: this paper; around it its strongest related papers (bigger: " +
      "stronger link), the links among them (red arrows: citations) and, in orange, concepts it shares with them." });
  }
  function concept(s, data) {
    var c = data.concept;
    titled("Concept", c.name, c.community);
    side.appendChild(el("p", "x-meta", plural(c.papers, "paper") + (rangeText(s) ? " · " + data.in_range + " from " + rangeText(s) : "")));
    if (c.aliases && c.aliases.length) side.appendChild(el("p", "x-meta", "Also: " + c.aliases.slice(0, 8).join(", ")));
    backTo(c.community);
    section("Papers per year");
    yearBars(data.years, s);
    section("Co-occurs with");
    chips(data.cooccurring, function (x) { return { view: "concept", id: x.id }; }, function (x) { return x.count; });
    section("Papers" + (rangeText(s) ? " (" + rangeText(s) + ")" : ""));
    paperList(data.papers, "No paper with this concept in these years.");
    var top = Math.max.apply(null, data.cooccurring.map(function (x) { return x.count; }).concat([1]));
    var nodes = [{ id: c.id, kind: "concept", label: c.name, weight: top, year: null }].concat(data.cooccurring.map(function (x) {
      return { id: x.id, kind: "concept", label: x.name, weight: x.count, year: null };
    }));
    var edges = data.cooccurring.map(function (x, k) { return [0, k + 1, x.count, "co_occurs"]; });
    return draw({ nodes: nodes, edges: edges }, { spring: 180, legend:
      "The concept and the concepts named with it most; line width: papers naming both." });
  }
  var VIEWS = {
    communities: function (s) { return api("communities", years(s)).then(function (d) { return [d, overview]; }); },
    community: function (s) { return api("community", Object.assign({ id: s.id }, years(s))).then(function (d) { return [d, community]; }); },
    paper: function (s) { return api("paper", Object.assign({ id: s.id }, years(s))).then(function (d) { return [d, paper]; }); },
    concept: function (s) { return api("concept", Object.assign({ id: s.id }, years(s))).then(function (d) { return [d, concept]; }); }
  };
  function render() {
    var s = kgx.state = readState(), token = ++rendering;
    kgx.ready = null;
    document.body.removeAttribute("data-ready");
    yearFrom.value = s.from === null ? "" : s.from;
    yearTo.value = s.to === null ? "" : s.to;
    status.textContent = "loading…";
    closeResults();
    return VIEWS[s.view](s).then(function (pair) {
      if (token !== rendering) return;
      kgx.data = pair[0];
      side.replaceChildren();
      side.scrollTop = 0;
      status.textContent = "";
      return pair[1](s, pair[0]);
    }).catch(function (err) {
      if (token !== rendering) return;
      if (network) { network.destroy(); network = kgx.network = null; }
      side.replaceChildren();
      setCrumbs([{ text: "not found" }]);
      side.appendChild(el("p", "x-error", String(err && err.message || err)));
      side.appendChild(link("← All communities", { view: "communities", id: null }, "x-back"));
      status.textContent = "";
    }).then(function () {
      if (token !== rendering) return;
      var here = crumbs.querySelector(".x-here");
      document.title = "kg · " + meta.build + (here ? " · " + here.textContent : "");
      kgx.ready = performance.now();
      document.body.setAttribute("data-ready", s.view + ":" + (s.id === null ? "" : s.id));
    });
  }

  // ---- search as one types ------------------------------------------------------------------------
  var input = document.getElementById("x-search"), results = document.getElementById("x-results");
  var hits = [], active = -1, timer = null, pending = null, asked = "";
  function closeResults() { results.hidden = true; }
  function showResults(found) {
    hits = [];
    results.replaceChildren();
    if (!found) { results.hidden = true; return; }
    [["papers", "Papers"], ["concepts", "Concepts"]].forEach(function (group) {
      if (!found[group[0]].length) return;
      results.appendChild(el("li", "x-group", group[1]));
      found[group[0]].forEach(function (hit) {
        var k = hits.length, li = el("li", "x-hit");
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", k === active ? "true" : "false");
        if (group[0] === "papers") {
          li.appendChild(el("span", "x-title", hit.title));
          li.appendChild(el("span", "x-year", hit.year === null || hit.year === undefined ? "" : hit.year));
          hits.push({ view: "paper", id: hit.id });
        } else {
          li.appendChild(el("span", "x-title", hit.name));
          li.appendChild(el("span", "x-year", plural(hit.papers, "paper")));
          hits.push({ view: "concept", id: hit.id });
        }
        li.addEventListener("mousedown", function (ev) { ev.preventDefault(); choose(k); });
        results.appendChild(li);
      });
    });
    if (!hits.length) results.appendChild(el("li", "x-empty", "no match" + (rangeText(kgx.state) ? " in " + rangeText(kgx.state) : "")));
    results.hidden = false;
  }
  function choose(k) {
    if (k < 0 || k >= hits.length) return;
    closeResults();
    input.blur();
    go(within(hits[k]));
  }
  function ask(text) {
    asked = text;
    if (pending) pending.abort();
    if (!text.trim()) { showResults(null); return Promise.resolve(); }
    if (text.trim().length < meta.min_query) {
      hits = []; results.replaceChildren(el("li", "x-empty", "type " + meta.min_query + " characters or more"));
      results.hidden = false; return Promise.resolve();
    }
    pending = new AbortController();
    var q = new URLSearchParams({ q: text, limit: 8 }), s = kgx.state;
    if (s.from !== null) q.set("from", s.from);
    if (s.to !== null) q.set("to", s.to);
    kgx.requests++;
    return fetch("/api/search?" + q.toString(), { signal: pending.signal, cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (found) { if (asked === text) { active = 0; showResults(found); kgx.searched = text; } })
      .catch(function () {});
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    var text = input.value;
    timer = setTimeout(function () { ask(text); }, 60);
  });
  input.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      if (!hits.length) return;
      active = (active + (ev.key === "ArrowDown" ? 1 : hits.length - 1)) % hits.length;
      results.querySelectorAll(".x-hit").forEach(function (li, k) { li.setAttribute("aria-selected", k === active ? "true" : "false"); });
      ev.preventDefault();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      if (kgx.searched === input.value && hits.length) choose(Math.max(active, 0));
      else { clearTimeout(timer); ask(input.value).then(function () { if (hits.length) choose(0); }); }
    } else if (ev.key === "Escape") {
      input.value = ""; showResults(null); input.blur();
    }
  });
  input.addEventListener("blur", function () { setTimeout(closeResults, 100); });
  input.addEventListener("focus", function () { if (hits.length && input.value.trim()) results.hidden = false; });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "/" && document.activeElement !== input && !/^(INPUT|TEXTAREA)$/.test(document.activeElement.tagName)) {
      ev.preventDefault(); input.focus(); input.select();
    }
  });

  render();
})();
