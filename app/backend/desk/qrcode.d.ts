/** The two modules of `qrcode` the desk imports (the package ships no types; qr-code.server.ts). */
declare module "qrcode/lib/core/qrcode" {
  export interface QRCodeData {
    modules: unknown;
  }
  export function create(text: string, options?: { errorCorrectionLevel?: "L" | "M" | "Q" | "H" }): QRCodeData;
}
declare module "qrcode/lib/renderer/svg-tag" {
  import type { QRCodeData } from "qrcode/lib/core/qrcode";
  export function render(data: QRCodeData, options?: { margin?: number; color?: { dark?: string; light?: string } }): string;
}
