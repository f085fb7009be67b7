/** What it does, when to use it (the registry's `useWhen`), and what it answers. */
export function toolDescription(what: string, useWhen: string | undefined, answers: string): string {
  const use = useWhen === undefined ? "" : ` Use it ${useWhen}.`;
  return `${what}${use} Answers ${answers}; a failure is {error, code}.`;
}
