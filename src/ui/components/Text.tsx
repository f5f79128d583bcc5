import { Text as InkText, type TextProps } from 'ink';
import { Children } from 'react';
import { inertText } from '../../lib/index.js';

/**
 * Ink's Text, with every string it is given made inert: Ink passes escape sequences straight
 * to the terminal, and most of what the REPL shows was written by a model. Components render
 * text only through this one (lint keeps Ink's own Text out of src/ui); newlines and tabs stay,
 * since a message or a plan is shown with its lines.
 */
export function Text({ children, ...props }: TextProps) {
  return <InkText {...props}>{Children.map(children, (child) => (typeof child === 'string' ? inertText(child) : child))}</InkText>;
}
