// The step widgets' tree pictures (an anywidget front end): every frame of a search, kept
// as PNG bytes in the model, most of them as *changes*: frame i (not a key frame) holds
// only the pixels that differ from frame i - 1, the rest transparent, in the box that
// holds them (its top left corner in `corners`). Showing step k draws
// the last key frame at or before k and the changes after it onto a canvas, or, stepping
// forward, only the changes since the step drawn. The frames are in the widget's saved
// state, so a saved page steps without a kernel. The canvas is an image to assistive
// technology, named (and titled) by the text alternative of the step shown.

function render({ model, el }) {
  const canvas = document.createElement("canvas");
  canvas.className = "mmk-frame-canvas";
  canvas.setAttribute("role", "img");
  el.classList.add("mmk-frames");
  el.append(canvas);
  const ctx = canvas.getContext("2d");

  // Decoded frames, by index, kept for the last few used (a decoded frame is a full-size
  // bitmap; a trace of 300 frames would hold hundreds of MB): key frames are kept longer.
  // The kernel only ever appends frames, so a decoded frame stays right.
  const decoded = new Map();
  const KEEP = 48;
  const bitmap = (i) => {
    const frames = model.get("frames");
    if (!decoded.has(i)) {
      decoded.set(i, createImageBitmap(new Blob([frames[i]], { type: "image/png" })));
      if (decoded.size > KEEP) {
        const keys = model.get("whole");
        for (const j of decoded.keys()) {
          if (!keys[j] && j !== i) { decoded.delete(j); break; }
        }
      }
    }
    return decoded.get(i);
  };

  let drawn = -1;  // the step on the canvas
  let asked = 0;   // counts requests: a slow one must not overwrite a newer one
  const show = async () => {
    const mine = ++asked;
    const frames = model.get("frames");
    const keys = model.get("whole");
    const titles = model.get("titles");
    if (!frames.length) return;
    const k = Math.max(0, Math.min(model.get("index"), frames.length - 1));
    let start = k;
    if (drawn >= 0 && drawn <= k) {
      start = drawn + 1;
    } else {
      while (start > 0 && !keys[start]) start -= 1;
    }
    const images = [];
    for (let i = start; i <= k; i++) images.push(bitmap(i));
    const ready = await Promise.all(images);
    if (mine !== asked) return;
    if (canvas.width !== model.get("width") || canvas.height !== model.get("height")) {
      canvas.width = model.get("width");
      canvas.height = model.get("height");
      // its own size, or smaller in a narrow page (as an ipywidgets Image is shown)
      canvas.style.width = `${canvas.width}px`;
      canvas.style.maxWidth = "100%";
      canvas.style.height = "auto";
    }
    const corners = model.get("corners");
    ready.forEach((image, j) => {
      const [x, y] = keys[start + j] ? [0, 0] : corners[start + j];
      if (keys[start + j]) ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(image, x, y);
    });
    drawn = k;
    const title = titles.length ? titles[Math.min(model.get("index"), titles.length - 1)] : "";
    canvas.setAttribute("aria-label", title);
    canvas.title = title;
    canvas.dataset.step = String(k);
  };

  const onFrames = () => {
    if (drawn >= model.get("frames").length) drawn = -1;
    show();
  };
  const onIndex = () => show();
  model.on("change:index", onIndex);
  model.on("change:frames", onFrames);
  model.on("change:titles", onIndex);
  show();
  return () => {
    model.off("change:index", onIndex);
    model.off("change:frames", onFrames);
    model.off("change:titles", onIndex);
    decoded.clear();
  };
}

export default { render };
