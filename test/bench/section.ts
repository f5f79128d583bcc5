/**
 * A benchmark section: `npm run bench` runs every registered section (see run.ts) in one
 * process and prints its figures, each beside its target when it has one.
 */
export type Figure = {
  label: string;
  /** As printed, with its unit. */
  value: string;
  target?: string;
  /** Whether the value meets the target; a missed target makes the run exit non-zero. */
  met?: boolean;
};

export type BenchSection = {
  name: string;
  run(): Promise<Figure[]>;
};
