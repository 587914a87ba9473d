/**
 * Who is drawing on the user's terminal. A dialog (the approval prompt, terminal elicitation) holds the terminal
 * while it is open; a stdio server's stderr lines wait until it is released, so nothing a server writes can appear
 * inside a dialog or draw a fake one over it. One gate is shared by every dialog and server of a process.
 */
export interface TerminalGate {
  /** Takes the terminal; the returned function gives it back (once). Holds nest. */
  hold(): () => void;
  isHeld(): boolean;
  /** Called each time the terminal is taken while free, before the holder draws; returns an unsubscribe. */
  onHold(listener: () => void): () => void;
  /** Called each time the last hold is given back; returns an unsubscribe. */
  onRelease(listener: () => void): () => void;
}

export function createTerminalGate(): TerminalGate {
  let holds = 0;
  const listeners = new Set<() => void>();
  const holdListeners = new Set<() => void>();
  return {
    hold() {
      if (holds === 0) for (const listener of [...holdListeners]) listener();
      holds++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        if (holds === 0) for (const listener of [...listeners]) listener();
      };
    },
    isHeld: () => holds > 0,
    onHold(listener) {
      holdListeners.add(listener);
      return () => holdListeners.delete(listener);
    },
    onRelease(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let shared: TerminalGate | undefined;

/** The process's gate: the default of the dialogs and of server stderr, since the terminal is the process's. */
export function sharedTerminalGate(): TerminalGate {
  shared ??= createTerminalGate();
  return shared;
}
