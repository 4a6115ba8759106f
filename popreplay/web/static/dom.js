/*
 * The pages' one DOM helper (an ES module; docs/viewer.md, "Page modules").
 *
 *   el(tag, attrs, ...children)
 *     attrs: {class, text, dataset: {}, on: {click: fn}} or any attribute (true: present, and
 *            false, null or undefined: left out);
 *     children: nodes, strings, numbers, arrays of them; null, undefined and false are skipped.
 */

export function el(tag, attrs) {
  var node = document.createElement(tag);
  attrs = attrs || {};
  Object.keys(attrs).forEach(function (key) {
    var value = attrs[key];
    if (value === null || value === undefined || value === false) return;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.keys(value).forEach(function (k) { node.dataset[k] = value[k]; });
    else if (key === "on") Object.keys(value).forEach(function (k) { node.addEventListener(k, value[k]); });
    else node.setAttribute(key, value === true ? "" : String(value));
  });
  for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
  return node;
}

export function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
  node.appendChild(typeof child === "string" || typeof child === "number"
    ? document.createTextNode(String(child)) : child);
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

export function cssEscape(value) {
  return window.CSS && window.CSS.escape ? window.CSS.escape(value) : String(value).replace(/["\\]/g, "\\$&");
}

// the page's data: the JSON of <script type="application/json" id="…"> (null: not on this page)
export function pageData(id) {
  var node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

// run `boot` once the document is parsed (a module runs after parsing, but a page may also be
// imported by another module or a test)
export function whenReady(boot) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
}
