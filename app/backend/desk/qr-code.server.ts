/**
 * The enrolment QR code, drawn on the server as an SVG in the page's HTML (no script, no remote
 * image). Only the encoder and the SVG renderer of `qrcode` are imported: its main entry pulls in
 * the PNG and file-system renderers a Worker has no use for.
 */
import { create } from "qrcode/lib/core/qrcode";
import { render } from "qrcode/lib/renderer/svg-tag";

/** An SVG of `text` as a QR code (error correction M, a quiet zone of 4 modules as the standard asks). */
export async function qrCodeSvg(text: string): Promise<string> {
  return render(create(text, { errorCorrectionLevel: "M" }), { margin: 4, color: { dark: "#000000ff", light: "#ffffffff" } });
}
