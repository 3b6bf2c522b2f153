import { useEffect, useRef, useState } from 'react';

interface Texts {
  block: string;
  unblock: string;
  question: string;
  confirm: string;
  cancel: string;
}

/**
 * Blocking a visitor asks first, inline (as deleting a message does); unblocking does not. Focus
 * goes to the confirmation, and back to the button when it is answered.
 */
export function BlockVisitor({
  blocked,
  texts,
  onChange,
}: {
  blocked: boolean;
  texts: Texts;
  onChange(blocked: boolean): void;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (answered.current) button.current?.focus();
  }, [asking]);
  const answer = (block: boolean) => {
    answered.current = true;
    setAsking(false);
    if (block) onChange(true);
  };
  if (asking) {
    return (
      <fieldset className="chat-console__confirm">
        <legend>{texts.question}</legend>
        <button
          ref={confirm}
          type="button"
          className="button button--small button--danger"
          onClick={() => answer(true)}
        >
          {texts.confirm}
        </button>{' '}
        <button type="button" className="button button--small button--secondary" onClick={() => answer(false)}>
          {texts.cancel}
        </button>
      </fieldset>
    );
  }
  return (
    <button
      ref={button}
      type="button"
      className="button button--small button--danger"
      onClick={() => (blocked ? onChange(false) : setAsking(true))}
    >
      {blocked ? texts.unblock : texts.block}
    </button>
  );
}
