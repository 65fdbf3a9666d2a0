// The step controls of minimaxkit's step widgets (an anywidget front end).
//
// Everything here runs in the browser, so a notebook saved with its widget state steps
// with every control and no kernel: first / back / next / last buttons, play / pause, a
// native range slider and a speed slider. Keys (focus anywhere in the controls):
// ← ↓ back, → ↑ next, Home first, End last, PageUp / PageDown ten steps. Each step is
// announced to screen readers in a polite live region. The step shown is the model's
// `value`; the widget's pictures and texts follow it through jsdlinks.

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function render({ model, el: host }) {
  const steps = () => model.get("steps");
  // data-lm-suppress-shortcuts: the front end's own shortcuts (Notebook 7 binds arrow keys
  // in its capture phase) leave keys typed in the controls alone.
  const root = el("div", { class: "mmk-controls", role: "group",
                           "aria-label": model.get("label"),
                           "data-lm-suppress-shortcuts": "true" });
  const row = el("div", { class: "mmk-row" });
  const button = (cls, text, label, key) =>
    el("button", { type: "button", class: `mmk-btn ${cls}`, "aria-label": label,
                   title: `${label} (${key})` }, text);
  const first = button("mmk-first", "|◀ first", "First step", "Home");
  const back = button("mmk-back", "◀ back", "Previous step", "Left arrow");
  const next = button("mmk-next", "next ▶", "Next step", "Right arrow");
  const last = button("mmk-last", "last ▶|", "Last step", "End");
  const play = button("mmk-playbtn", "▶ play", "Play", "runs the steps");
  play.setAttribute("aria-pressed", "false");
  const sliderId = `mmk-step-${Math.random().toString(36).slice(2)}`;
  const sliderLabel = el("label", { for: sliderId, class: "mmk-label" }, "step");
  const slider = el("input", { type: "range", id: sliderId, class: "mmk-slider", min: "0",
                               step: "1" });
  const readout = el("span", { class: "mmk-readout", "aria-hidden": "true" });
  const speedId = `${sliderId}-speed`;
  const speedLabel = el("label", { for: speedId, class: "mmk-label" }, "ms/step");
  const speed = el("input", { type: "range", id: speedId, class: "mmk-speed", min: "100",
                              max: "2000", step: "100" });
  const speedOut = el("span", { class: "mmk-readout", "aria-hidden": "true" });
  const live = el("div", { class: "mmk-live", role: "status", "aria-live": "polite",
                           "aria-atomic": "true" });
  row.append(first, back, next, last, play, sliderLabel, slider, readout);
  const row2 = el("div", { class: "mmk-row" });
  row2.append(speedLabel, speed, speedOut);
  root.append(row, row2, live);
  host.append(root);
  // (on each focusable part too: a shortcut whose selector ends in `:focus` matches the
  // focused element itself before the walk up reaches `root`)
  for (const part of root.querySelectorAll("button, input")) {
    part.setAttribute("data-lm-suppress-shortcuts", "true");
  }

  const say = (v) => {
    const texts = model.get("texts");
    const text = v < texts.length ? texts[v] : model.get("status");
    const end = v >= steps() ? ", the last" : v <= 0 ? ", the first" : "";
    return `Step ${v} of ${steps()}${end}. ${text}`;
  };

  // At the first step, first and back do nothing; at the last, next and last: they say so
  // (aria-disabled, announced by screen readers, and drawn greyed) but keep the focus, so a
  // keyboard reader who presses next to the end is not thrown out of the controls.
  const ends = (v) => {
    for (const [b, off] of [[first, v <= 0], [back, v <= 0], [next, v >= steps()],
                            [last, v >= steps()]]) {
      b.setAttribute("aria-disabled", off ? "true" : "false");
    }
  };
  const off = (b) => b.getAttribute("aria-disabled") === "true";

  const go = (v) => {
    v = Math.max(0, Math.min(steps(), Math.round(v)));
    if (v === model.get("value")) return;
    model.set("value", v);
    try { model.save_changes(); } catch (e) { /* no kernel (a saved page): browser only */ }
  };

  const show = (announce) => {
    const v = model.get("value");
    slider.max = String(steps());
    slider.value = String(v);
    slider.setAttribute("aria-valuetext", `step ${v} of ${steps()}`);
    readout.textContent = `${v} / ${steps()}`;
    ends(v);
    // Without texts (live mode) the kernel's `status` for this step is announced when it comes.
    if (announce && v < model.get("texts").length) live.textContent = say(v);
  };

  let timer = null;
  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    play.textContent = "▶ play";
    play.setAttribute("aria-label", "Play");
    play.setAttribute("aria-pressed", "false");
  };
  const tick = () => {
    if (model.get("value") >= steps()) { stop(); return; }
    go(model.get("value") + 1);
    timer = setTimeout(tick, model.get("interval"));
  };
  const start = () => {
    if (model.get("value") >= steps()) go(0);
    play.textContent = "‖ pause";
    play.setAttribute("aria-label", "Pause");
    play.setAttribute("aria-pressed", "true");
    timer = setTimeout(tick, model.get("interval"));
  };

  first.addEventListener("click", () => { if (!off(first)) { stop(); go(0); } });
  back.addEventListener("click", () => { if (!off(back)) { stop(); go(model.get("value") - 1); } });
  next.addEventListener("click", () => { if (!off(next)) { stop(); go(model.get("value") + 1); } });
  last.addEventListener("click", () => { if (!off(last)) { stop(); go(steps()); } });
  play.addEventListener("click", () => (timer === null ? start() : stop()));
  slider.addEventListener("input", () => go(Number(slider.value)));
  const showSpeed = () => {
    speed.value = String(model.get("interval"));
    speedOut.textContent = `${model.get("interval")} ms`;
  };
  speed.addEventListener("input", () => {
    model.set("interval", Number(speed.value));
    try { model.save_changes(); } catch (e) { /* no kernel */ }
  });

  const keys = {
    ArrowRight: (v) => v + 1, ArrowUp: (v) => v + 1,
    ArrowLeft: (v) => v - 1, ArrowDown: (v) => v - 1,
    PageUp: (v) => v + 10, PageDown: (v) => v - 10,
    Home: () => 0, End: () => steps(),
  };
  root.addEventListener("keydown", (event) => {
    if (event.target === speed) { event.stopPropagation(); return; }  // its own arrows
    const to = keys[event.key];
    if (to !== undefined && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      stop();
      go(to(model.get("value")));
    }
    // The notebook's command-mode shortcuts (a, b, d d, arrows, ...) must not fire while
    // the reader works the controls.
    if (event.key !== "Tab" && event.key !== "Escape") event.stopPropagation();
  });

  const onValue = () => show(true);
  const onSteps = () => show(false);
  const onStatus = () => { live.textContent = say(model.get("value")); };
  model.on("change:status", onStatus);
  model.on("change:value", onValue);
  model.on("change:steps", onSteps);
  model.on("change:interval", showSpeed);
  show(false);
  showSpeed();
  return () => {
    stop();
    model.off("change:value", onValue);
    model.off("change:steps", onSteps);
    model.off("change:status", onStatus);
    model.off("change:interval", showSpeed);
  };
}

export default { render };
