import type { z } from "zod";

/** One zod issue as `path: message` (`the body: …` for the root), for error messages. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length === 0 ? "the body" : issue.path.map(String).join(".");
  return `${where}: ${issue.message}`;
}

/** The first `max` issues of a failed parse, joined with "; " (and how many more there were). */
export function describeIssues(issues: readonly z.core.$ZodIssue[], max = 3): string {
  const shown = issues.slice(0, max).map(describeIssue).join("; ");
  return issues.length > max ? `${shown}; and ${issues.length - max} more` : shown;
}
