/** Workflow guides, served as text/markdown under forge://guides/. */

export interface Guide {
  name: string;
  title: string;
  description: string;
  text: string;
}

export const GUIDES: Guide[] = [
  {
    name: 'git-workflow',
    title: 'Git workflow',
    description: 'Branch, commit, push and merge on the instance, step by step.',
    text: `# Git workflow

1. Start from an up-to-date default branch: read \`forge://project/{project_id}\` for \`default_branch\`.
2. Create a short-lived branch named after the work (\`feature/…\`, \`fix/…\`) with \`branch.create\`.
3. Commit small, self-contained changes (\`repository.commit_create\`), each with a message that says why.
4. Open a merge request early (\`merge_request.create\`), draft while it is incomplete.
5. Keep the branch current: rebase on the target (\`merge_request.rebase\`) rather than merging it in.
6. Merge once the pipeline is green and approvals are in; delete the source branch.
`,
  },
  {
    name: 'merge-request-hygiene',
    title: 'Merge request hygiene',
    description: 'What makes a merge request easy to review and safe to merge.',
    text: `# Merge request hygiene

- One purpose per merge request; split refactors from behaviour changes.
- A title that says what changes, and a description that says why, how it was tested and what to watch.
- Link the issue it closes (\`Closes #12\`) so the issue closes on merge.
- Keep it small: under 400 changed lines reviews well; larger ones hide defects.
- Assign reviewers who own the code touched; resolve every thread before merging.
- Never merge a red pipeline; re-run flaky jobs once, then fix them.
`,
  },
  {
    name: 'conventional-commits',
    title: 'Conventional commits',
    description: 'The commit message convention release notes are generated from.',
    text: `# Conventional commits

\`<type>(<scope>)!: <summary>\` then a blank line and a body that says why.

| type | use |
|---|---|
| feat | a new capability (minor release) |
| fix | a defect fixed (patch release) |
| docs, test, refactor, perf, build, ci, chore | no user-facing change |

A \`!\` after the type, or a \`BREAKING CHANGE:\` footer, marks a major release.
`,
  },
  {
    name: 'code-review',
    title: 'Code review',
    description: 'How to review a merge request well.',
    text: `# Code review

1. Read the description and the linked issue first: what should this change do?
2. Read the diff (\`forge://project/{project_id}/mr/{merge_request_iid}\`, \`mr_review.changes_get\`) for behaviour, then for style.
3. Check tests cover the new behaviour and the failure paths.
4. Comment on lines (\`mr_review.discussion_create\`); say what and why, and suggest a fix.
5. Approve only when every thread is resolved and the pipeline is green.
`,
  },
  {
    name: 'pipeline-troubleshooting',
    title: 'Pipeline troubleshooting',
    description: 'Finding why a pipeline failed and what to do about it.',
    text: `# Pipeline troubleshooting

1. Read the pipeline (\`forge://project/{project_id}/pipeline/{pipeline_id}\`) and its jobs (\`…/jobs\`).
2. For each failed job read the end of its log (\`job.trace\` with \`tail_lines\`).
3. Tell apart the job's own failure (a test, a lint) from the runner's (timeouts, system failures).
4. Retry a job once for a suspected flake (\`job.retry\`); a second failure is a real one.
5. Fix the cause on the branch, never by skipping the job.
`,
  },
];
