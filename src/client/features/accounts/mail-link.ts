import { useEffect, useState } from 'react';
import { navigate, useAddress } from '#client/lib/address.tsx';

export interface MailLink {
  email: string;
  /** Empty when only the address is known (passed on by the page before). */
  code: string;
}

/**
 * The address and code a mailed link carries in its fragment (which browsers never send to a
 * server), or else the address the previous page passed on. Read after hydration, since the
 * prerendered page cannot know either; the fragment is then removed from the address bar.
 */
export function useMailLink(): MailLink | null {
  const location = useAddress();
  const [link, setLink] = useState<MailLink | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.hash.slice(1));
    const fromMail = params.get('email');
    const passed = (location.state as { email?: unknown } | null)?.email;
    if (fromMail) {
      setLink({ email: fromMail, code: params.get('code') ?? '' });
      navigate(location.pathname + location.search, { replace: true, state: { email: fromMail } });
    } else if (typeof passed === 'string') {
      setLink({ email: passed, code: '' });
    }
  }, []);

  return link;
}
