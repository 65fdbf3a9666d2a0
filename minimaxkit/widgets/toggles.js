// The quiz's leaf toggles (an anywidget front end): one real <button> per leaf with
// aria-pressed, an accessible name ("leaf N, value 8"), no title, and a selected state
// that differs from the unselected one in fill (dark blue on white, 8:1), border width and
// a check mark, so it reads without colour too. The model's `selected` holds the indices of
// the selected leaves, `wrong` those a check found wrong; Space or Enter on a focused
// toggle flips it, as a click does.

function render({ model, el: host }) {
  const root = document.createElement("div");
  root.className = "mmk-toggles";
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", model.get("label"));
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  host.append(root);

  // A toggle a check found wrong shows ✗ and what is wrong after its text (a dashed
  // border too) and says it after its name, until the next check: the model's
  // `wrong_words`, the first when it is pressed ("selected, should not be"), the second
  // when not, so a wrongly pressed and a wrongly unpressed toggle read differently (the
  // CSS keeps each one's fill). Pressed, it loses its ✓, as "✓ →J ✗" read as right and
  // wrong at once.
  const markWrong = (b, i, wrong) => {
    const [text, name] = model.get("items")[i];
    const bad = wrong.has(i);
    const pressed = b.getAttribute("aria-pressed") === "true";
    const words = (model.get("wrong_words") || [])[pressed ? 0 : 1] || "wrong";
    b.classList.toggle("mmk-wrong", bad);
    b.setAttribute("aria-label", bad ? `${name} (wrong: ${words})` : name);
    b.replaceChildren(text);
    if (bad) {
      const mark = document.createElement("span");
      mark.className = "mmk-wrong-mark";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = ` ✗ ${words}`;
      b.append(mark);
    }
  };
  const draw = () => {
    const chosen = new Set(model.get("selected"));
    const wrong = new Set(model.get("wrong") || []);
    root.replaceChildren();
    model.get("items").forEach(([text, name], i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mmk-leaf";
      b.setAttribute("data-lm-suppress-shortcuts", "true");
      b.setAttribute("aria-pressed", chosen.has(i) ? "true" : "false");
      markWrong(b, i, wrong);
      b.addEventListener("click", () => {
        const now = new Set(model.get("selected"));
        if (now.has(i)) now.delete(i); else now.add(i);
        model.set("selected", [...now].sort((a, c) => a - c));
        try { model.save_changes(); } catch (e) { /* no kernel */ }
      });
      root.append(b);
    });
  };
  const update = () => {
    const chosen = new Set(model.get("selected"));
    const wrong = new Set(model.get("wrong") || []);
    root.querySelectorAll("button.mmk-leaf").forEach((b, i) => {
      b.setAttribute("aria-pressed", chosen.has(i) ? "true" : "false");
      markWrong(b, i, wrong);  // (its words follow the state it is in now)
    });
  };
  // The notebook's command-mode shortcuts must not fire while the reader works the toggles.
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Tab" && event.key !== "Escape") event.stopPropagation();
  });
  const updateWrong = () => {
    const wrong = new Set(model.get("wrong") || []);
    root.querySelectorAll("button.mmk-leaf").forEach((b, i) => markWrong(b, i, wrong));
  };
  model.on("change:items", draw);
  model.on("change:selected", update);
  model.on("change:wrong", updateWrong);
  model.on("change:wrong_words", updateWrong);
  draw();
  return () => {
    model.off("change:items", draw);
    model.off("change:selected", update);
    model.off("change:wrong", updateWrong);
    model.off("change:wrong_words", updateWrong);
  };
}

export default { render };
