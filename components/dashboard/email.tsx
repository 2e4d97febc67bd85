import { Fragment } from "react";

/**
 * An e-mail address that wraps where a reader expects: before the "@" and before each dot of the
 * domain (`someone.long` `@example` `.test`), and inside a part only when one part alone is too wide.
 */
export function Email({ address, className = "" }: { address: string; className?: string }) {
  const at = address.lastIndexOf("@");
  const parts = at < 0 ? [address] : [address.slice(0, at), ...address.slice(at).split(/(?=\.)/)];
  return (
    <span className={`[overflow-wrap:break-word] ${className}`} translate="no">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
