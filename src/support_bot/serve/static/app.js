// support-bot serve: the chat page. Plain JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;   // the open conversation's id
let busy = false;

function add(cls, text) {
  const div = document.createElement("div");
  div.className = cls;
  div.textContent = text;
  $("log").appendChild(div);
  $("log").scrollTop = $("log").scrollHeight;
  return div;
}

function status(text) { $("status").textContent = text || ""; }

function toolLine(name, args, result, ok, seconds) {
  let line = `${ok === undefined ? "…" : ok ? "✓" : "✗"} ${name}(${args})`;
  if (seconds !== undefined) line += ` ${seconds.toFixed(2)}s`;
  if (result !== undefined) line += ` → ${result}`;
  return line;
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    ...options,
  });
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try { message = (await response.json()).error || message; } catch (_) { /* not JSON */ }
    throw new Error(message);
  }
  return response;
}

async function listConversations() {
  const data = await (await api("/api/conversations")).json();
  const list = $("conversations");
  list.textContent = "";
  for (const c of data.conversations) {
    const li = document.createElement("li");
    li.textContent = c.title || "(new conversation)";
    li.dataset.id = c.id;
    if (c.id === current) li.className = "current";
    li.onclick = () => openConversation(c.id);
    list.appendChild(li);
  }
}

async function newConversation() {
  const c = await (await api("/api/conversations", { method: "POST" })).json();
  current = c.id;
  $("log").textContent = "";
  localStorage.setItem("support-bot-conversation", current);
  await listConversations();
  $("text").focus();
}

async function openConversation(id) {
  const c = await (await api(`/api/conversations/${id}`)).json();
  current = id;
  localStorage.setItem("support-bot-conversation", current);
  $("log").textContent = "";
  const calls = {};
  for (const m of c.messages) {
    if (m.role === "user") add("msg user", m.text);
    else if (m.role === "assistant") {
      for (const call of m.tool_calls) calls[call.id] = call;
      if (m.text) add("msg assistant", m.text);
    } else if (m.role === "tool") {
      for (const r of m.responses) {
        const args = calls[r.id] ? calls[r.id].arguments : "";
        add("tool ok", toolLine(r.name, args, r.result, true));
      }
    }
  }
  // A reservation that waits (asked before a reload, a restart, or on another server)
  // is asked again; the decision resumes the turn on whichever server gets it.
  const group = { decisions: {}, size: c.pending.length };
  for (const p of c.pending) approvalPrompt(p, group);
  if (c.pending.length) status("Waiting for your decision…");
  await listConversations();
}

// One prompt per call that waits; the decisions of a paused turn go together.
const prompts = {};

function approvalPrompt(event, group) {
  const box = add("approval", `Approve ${event.name}(${event.arguments})?`);
  prompts[event.approval_id] = box;
  box.appendChild(document.createElement("br"));
  const decide = async (approved) => {
    for (const b of box.querySelectorAll("button")) b.disabled = true;
    group.decisions[event.approval_id] = approved;
    if (Object.keys(group.decisions).length < group.size) return;
    await stream(`/api/conversations/${current}/approvals`, { decisions: group.decisions });
  };
  for (const [label, cls, value] of [["Approve", "yes", true], ["Deny", "no", false]]) {
    const b = document.createElement("button");
    b.type = "button"; b.className = cls; b.textContent = label;
    b.onclick = () => decide(value);
    box.appendChild(b);
  }
  return box;
}

function decided(data) {
  const box = prompts[data.approval_id];
  if (!box) return;
  for (const b of box.querySelectorAll("button")) b.remove();
  box.appendChild(document.createTextNode(
    data.approved ? " approved" : data.reason === "timeout" ? " denied (no answer in time)"
                                                           : " denied"));
}

function handle(name, data, turn) {
  if (name === "queued") status(`Waiting for the model: position ${data.position} in the queue…`);
  else if (name === "started") status("Thinking…");
  else if (name === "text") {
    if (!turn.answer) turn.answer = add("msg assistant", "");
    turn.answer.textContent += data.delta;
    $("log").scrollTop = $("log").scrollHeight;
    status("");
  } else if (name === "tool_started") {
    turn.tools[data.id] = add("tool", toolLine(data.name, data.arguments));
  } else if (name === "tool_finished") {
    const line = turn.tools[data.id] || add("tool", "");
    line.className = data.is_error ? "tool err" : "tool ok";
    line.textContent = toolLine(data.name, data.arguments, data.result, !data.is_error,
                                data.duration_s);
    status("Thinking…");
  } else if (name === "approval_requested") {
    if (turn.tools[data.id]) { turn.tools[data.id].remove(); delete turn.tools[data.id]; }
    approvalPrompt(data, turn.waiting);
    turn.waiting.size += 1;
  } else if (name === "approval_decided") {
    decided(data);
    status("Thinking…");
  } else if (name === "error") {
    add("msg error", data.message);
    status("");
  } else if (name === "done") {
    status(data.paused ? "Waiting for your decision…" : "");
  }
}

// POST a JSON body and show the turn it streams back (a message, or a resumed turn).
async function stream(path, body) {
  busy = true;
  $("send").disabled = true;
  const turn = { answer: null, tools: {}, waiting: { decisions: {}, size: 0 } };
  try {
    const response = await api(path, { method: "POST", body: JSON.stringify(body) });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) handle(name, JSON.parse(data.join("\n")), turn);
      }
    }
  } catch (e) {
    add("msg error", e.message);
    status("");
  } finally {
    busy = false;
    $("send").disabled = false;
    await listConversations();
  }
}

async function send(text) {
  add("msg user", text);
  await stream(`/api/conversations/${current}/messages`, { text });
}

$("ask").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("text").value.trim();
  if (!text || busy) return;
  $("text").value = "";
  send(text);
});
$("new").addEventListener("click", () => newConversation());

(async () => {
  const saved = localStorage.getItem("support-bot-conversation");
  try {
    if (saved) await openConversation(saved);
    else await newConversation();
  } catch (_) {
    await newConversation();
  }
})();
