/**
 * The number of conversations waiting, in the tab's title ("(2) Chats – Console") and on its icon,
 * so that an operator on another tab or console page sees it. Pages set their own titles (see
 * use-title.ts): the count is put back in front whenever the title changes.
 */

const PREFIX = /^\(\d+\) /;
let count = 0;
let observer: MutationObserver | null = null;
let originalIcon: string | null = null;
let iconFor = -1;

function applyTitle() {
  const base = document.title.replace(PREFIX, '');
  const wanted = count > 0 ? `(${count}) ${base}` : base;
  if (document.title !== wanted) document.title = wanted;
}

function iconLink(): HTMLLinkElement | null {
  return document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
}

/** The site's icon with a red disc and the count drawn over it (same-origin, so the canvas can export it). */
function applyIcon() {
  const link = iconLink();
  if (!link || iconFor === count) return;
  originalIcon ??= link.href;
  iconFor = count;
  if (count === 0) {
    link.href = originalIcon;
    return;
  }
  const shown = count;
  const image = new Image();
  image.onload = () => {
    if (iconFor !== shown) return;
    const canvas = document.createElement('canvas');
    canvas.width = 32;
    canvas.height = 32;
    const context = canvas.getContext('2d');
    if (!context) return;
    context.drawImage(image, 0, 0, 32, 32);
    context.fillStyle = '#d92d20';
    context.beginPath();
    context.arc(22, 10, 10, 0, 2 * Math.PI);
    context.fill();
    context.fillStyle = '#ffffff';
    context.font = 'bold 14px sans-serif';
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    context.fillText(shown > 9 ? '9+' : String(shown), 22, 11);
    link.href = canvas.toDataURL('image/png');
  };
  image.src = originalIcon;
}

export function showWaiting(waiting: number) {
  count = waiting;
  if (!observer) {
    const title = document.querySelector('title');
    if (title) {
      observer = new MutationObserver(applyTitle);
      observer.observe(title, { childList: true, characterData: true, subtree: true });
    }
  }
  applyTitle();
  applyIcon();
}

/** The console left (signed out, say): title and icon as they were. */
export function clearWaiting() {
  observer?.disconnect();
  observer = null;
  count = 0;
  applyTitle();
  applyIcon();
}
