/** The platform this process runs on, spelled as capability `platforms` spell it. */
export function runningPlatform(): string {
  switch (process.platform) {
    case "darwin":
      return "macOS";
    case "win32":
      return "windows";
    case "android":
      return "android";
    default:
      return "linux";
  }
}
