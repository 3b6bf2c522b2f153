import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useToast } from './use-toast.ts';

function UsesToasts() {
  useToast();
  return null;
}

describe('useToast', () => {
  it('refuses to work outside its provider, saying so', () => {
    expect(() => renderToString(<UsesToasts />)).toThrow('useToast must be used within a ToastProvider');
  });
});
