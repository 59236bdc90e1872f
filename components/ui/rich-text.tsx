import { Fragment, type ReactNode } from 'react';

/**
 * A translated template whose placeholders are elements (a bold email, a code span): word order
 * differs between English and Korean, so the element goes where the template puts it.
 */
export function fill(template: string, values: Record<string, ReactNode>): ReactNode {
  return template.split(/(\{\w+\})/).map((part, i) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return <Fragment key={i}>{name && name in values ? values[name] : part}</Fragment>;
  });
}
