// Live updates (server-sent events on /api/events) that survive the server restarting or
// the network going away: when the stream breaks the page says "reconnecting…" beside its
// title and opens it again after a short wait (1 s, then longer, up to 15 s); once it is
// back, `reconnected` reloads what the page shows, for what it missed meanwhile. A page
// that fell behind (`dropped`: the server ended its stream) reconnects and reloads at once.
// It stops when `wanted` says the page is gone (a logout).

const WAITS = [1000, 2000, 4000, 8000, 15000];

function showDown(down: boolean): void {
  const mark = document.getElementById("connection");
  if (mark) mark.hidden = !down;
}

export function listenLive(heard: Record<string, (data: any) => void>, reconnected: () => void,
                           wanted: () => boolean): void {
  let failures = 0;
  let missed = false;  // the stream broke once: reload what is shown when it is back

  function connect(): void {
    if (!wanted()) return;
    const source = new EventSource("/api/events");
    const broken = (now: boolean) => {
      source.close();
      missed = true;
      if (!wanted()) return;
      showDown(true);
      const wait = now ? 0 : WAITS[Math.min(failures, WAITS.length - 1)];
      failures += 1;
      window.setTimeout(connect, wait);
    };
    source.addEventListener("open", () => {
      failures = 0;
      showDown(false);
      if (missed) { missed = false; reconnected(); }
    });
    source.addEventListener("error", () => broken(false));
    source.addEventListener("dropped", () => broken(true));
    for (const [kind, call] of Object.entries(heard)) {
      source.addEventListener(kind, (event) => {
        if (!wanted()) { source.close(); return; }
        call(JSON.parse((event as MessageEvent).data));
      });
    }
  }

  connect();
}
