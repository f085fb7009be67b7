/** A wait for people to read: "45 seconds", "42 minutes" (rounded up, at least 1 second). */
export function inWords(seconds: number): string {
  if (seconds < 90) {
    const whole = Math.max(1, Math.ceil(seconds));
    return `${whole} second${whole === 1 ? "" : "s"}`;
  }
  return `${Math.ceil(seconds / 60)} minutes`;
}
