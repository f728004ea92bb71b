/** A QR code a phone reads from a printed card or across the room: the code sheet, sign-up and the screen. */
import qrcode from 'qrcode-generator';
import { raw } from 'hono/html';

/** A QR code as inline SVG: one path of dark modules, no styles, so the page's policy allows it. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount();
  const margin = 4;
  let path = '';
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) if (qr.isDark(r, c)) path += `M${c + margin} ${r + margin}h1v1h-1z`;
  }
  const box = size + margin * 2;
  return raw(
    `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${box} ${box}" role="img" aria-label="${escapeAttr(label)}" shape-rendering="crispEdges"><rect width="${box}" height="${box}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`,
  );
}

function escapeAttr(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
}
