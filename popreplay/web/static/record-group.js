/*
 * The recorder of a group (/g/<slug>/record, docs/groups.md): the group's members as one-tap
 * player chips in the setup, and the stored game joining the group with each seat mapped to its
 * member. The phone's group key stays in its cookie (sent with /g/<slug>/… only): this script
 * never sees it.
 */

import { clear, el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { post } from "./record-lib.js";

// The chips: `group` {slug, name, members: [{id, name}]}; `seats()` the player inputs now;
// `grow()` adds a player input (false when the mode has no more seats); `changed()` after a tap.
export function memberChips(group, seats, grow, changed) {
  var box = el("div", { class: "rp-members", role: "group", "aria-labelledby": "rec-members-h" });
  function seatOf(id) {
    return seats().findIndex(function (input) { return input.dataset.member === String(id); });
  }
  function tap(member) {
    var inputs = seats();
    var seat = seatOf(member.id);
    if (seat >= 0) {
      inputs[seat].value = "";
      delete inputs[seat].dataset.member;
    } else {
      var free = inputs.findIndex(function (input) { return !input.value.trim(); });
      if (free < 0) {
        if (!grow()) { changed(t("Every seat is taken: tap a member to free their seat.")); return; }
        inputs = seats();
        free = inputs.length - 1;
      }
      inputs[free].value = member.name;
      inputs[free].dataset.member = String(member.id);
    }
    draw();
    changed("");
  }
  function draw() {
    clear(box);
    box.appendChild(el("h3", { id: "rec-members-h", class: "rp-head", text: t("Who plays? Members of {group}", { group: group.name }) }));
    if (!group.members.length) {
      box.appendChild(el("p", { class: "rp-hint", text: t("This group has no members yet: type the players' names.") }));
      return;
    }
    box.appendChild(el("div", { class: "rp-row rp-chips" }, group.members.map(function (member) {
      var seat = seatOf(member.id);
      return el("button", { type: "button", class: "rp-toggle rp-chip" + (seat >= 0 ? " rp-on" : ""),
        "aria-pressed": seat >= 0 ? "true" : "false", dataset: { act: "member", member: String(member.id) },
        on: { click: function () { tap(member); } } },
        seat >= 0 ? el("span", { class: "rp-seat", text: String(seat + 1) }) : null, member.name);
    })));
    box.appendChild(el("p", { class: "rp-hint", text: t("Tap the members who play, in seat order (tap again to free the seat); type a name for a guest.") }));
  }
  // a name typed over a member's is a guest's
  function typed(ev) {
    var input = ev.target;
    var member = group.members.find(function (m) { return String(m.id) === input.dataset.member; });
    if (member && input.value.trim() !== member.name) { delete input.dataset.member; draw(); }
  }
  draw();
  return { node: box, draw: draw, typed: typed };
}

// The member id at each seat (null: a guest).
export function seatMembers(inputs) {
  return inputs.map(function (input) { return input.dataset.member ? Number(input.dataset.member) : null; });
}

// The stored game joins the group (once): POST /g/<slug>/record/games, with the phone's cookie.
export function joinGroup(setup, saved) {
  var group = setup.group;
  if (!group || group.joined === saved.slug) return Promise.resolve(null);
  return post("/g/" + encodeURIComponent(group.slug) + "/record/games",
    { game: saved.slug, owner_token: saved.token, members: setup.members || [] }).then(function (answer) {
    group.joined = saved.slug;
    return answer;
  }, function (e) {
    if (e.status) e.message = t("Stored, but not added to the group {group}: {why}", { group: group.name, why: e.message });
    e.joining = true;  // the game is stored: the next save tries again
    throw e;
  });
}

// "Record together" for a group: the table made through the group's recorder (same answer as
// POST /api/v1/tables with `group`).
export function tableUrl(setup) {
  return setup.group ? "/g/" + encodeURIComponent(setup.group.slug) + "/record/table" : "/api/v1/tables";
}

// A line that says which group the game is recorded for, with a link to its page.
export function groupLine(group) {
  return el("span", { class: "rp-group" }, tn("For the group {group}", {
    group: el("a", { href: "/g/" + encodeURIComponent(group.slug), text: group.name }) }));
}
