import { Fragment, type ReactNode } from 'react';

/** An email address, a domain or a link: one token, no spaces, with an @, a :// or a dot between letters. */
const ADDRESS = /^(?:\S+@\S+|\S+:\/\/\S+|[\p{L}\d-]+(?:\.[\p{L}\d-]+)+)$/u;
/** Where such a token may break (Chicago Manual 7.42): after an @ or a slash, before a dot that starts a name. */
const BREAK = /(?<=[@/])(?=[^/])|(?=\.[\p{L}])/u;

/**
 * Text with a line-break opportunity (`<wbr>`) at each place an address in it may break at, so
 * "erika.mustermann@example.com" wraps as "erika.mustermann@ / example.com" in a narrow box
 * instead of inside a name; every other word stays whole. Copying the text copies no extra
 * character.
 */
export function AddressBreaks({ text }: { text: string }): ReactNode {
  if (!/[@./]/.test(text)) return text;
  return text.split(/(\s+)/).map((token, index) =>
    ADDRESS.test(token) ? (
      <Fragment key={index}>
        {token.split(BREAK).map((part, at) => (
          <Fragment key={at}>
            {at > 0 && <wbr />}
            {part}
          </Fragment>
        ))}
      </Fragment>
    ) : (
      token
    ),
  );
}
