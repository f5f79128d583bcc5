/** How long after an empty line's Ctrl+C a second one exits (Claude Code's habit); the hint lasts as long. */
export const EXIT_WINDOW_MS = 2_000;
