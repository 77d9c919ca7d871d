// Small DOM helpers: every text goes in as a text node (names and messages are never HTML).

export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

// The server's lines use Discord's **bold** and backslash escapes; draw them as text.
export function richText(text) {
  const parts = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (index) parts.push(el("br"));
    const pieces = line.split("**");
    pieces.forEach((piece, i) => {
      const plain = piece.replace(/\\(.)/g, "$1").replace(/@\u200b/g, "@");
      if (plain) parts.push(i % 2 ? el("b", {}, [plain]) : document.createTextNode(plain));
    });
  });
  return parts;
}
