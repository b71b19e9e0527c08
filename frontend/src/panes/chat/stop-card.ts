// The stall card and the stages of a Stop (docs/api-extensions.md, "Stall
// watchdog and escalating stop"). A stalled turn (no output from Claude and
// no CPU used by its tools for --stall-after) gets a card offering
// "Interrupt" and "Stop the agent" (a forced cancel: SIGTERM, then SIGKILL).
// While a Stop runs, the server's stop-stage frames say how far it got;
// "Stop the agent" stays offered while the interrupt is waited for.
import { h, setText } from '../../dom';
import type { Activity } from '../../types';
import './stop-card.css';

export type StopStage = 'interrupting' | 'terminating' | 'killing' | 'done';

const stageText: Record<Exclude<StopStage, 'done'>, string> = {
  interrupting: 'Interrupting… (the agent is stopped if it does not answer within 10 s)',
  terminating: 'Stopping the agent… (SIGTERM sent to Claude and its tools)',
  killing: 'Stopping the agent… (SIGKILL sent to what ignored SIGTERM)',
};

export class StopCard {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly interruptBtn: HTMLButtonElement;
  private readonly stopBtn: HTMLButtonElement;
  private activity: Activity | null = null;
  private stage: StopStage | null = null;

  /** cancel(force) sends the cancel frame: force skips the interrupt. */
  constructor(private readonly cancel: (force: boolean) => void) {
    this.text = h('p', { class: 'chat-stop-text', role: 'status' });
    this.interruptBtn = h('button', { class: 'btn chat-stop-interrupt', type: 'button' }, 'Interrupt');
    this.stopBtn = h('button', { class: 'btn btn-danger chat-stop-force', type: 'button', title: 'End Claude and every process it started, without waiting' }, 'Stop the agent');
    this.interruptBtn.addEventListener('click', () => this.cancel(false));
    this.stopBtn.addEventListener('click', () => this.cancel(true));
    this.el = h('div', { class: 'chat-stop', hidden: true },
      this.text, h('div', { class: 'chat-stop-buttons' }, this.interruptBtn, this.stopBtn));
    this.render();
  }

  setActivity(a: Activity | null): void {
    this.activity = a;
    if (a === 'idle' || a === null) this.stage = null; // the turn ended: so did any Stop
    this.render();
  }

  setStage(s: StopStage): void {
    this.stage = s === 'done' ? null : s;
    this.render();
  }

  private render(): void {
    const stalled = this.activity === 'stalled';
    const stage = this.stage;
    this.el.hidden = !stalled && stage === null;
    this.el.dataset.stage = stage ?? (stalled ? 'stalled' : '');
    if (stage !== null && stage !== 'done') {
      setText(this.text, stageText[stage]);
    } else if (stalled) {
      setText(this.text, 'No progress for a while: Claude has printed nothing and its tools use no CPU.');
    }
    this.interruptBtn.hidden = stage !== null;
    this.stopBtn.hidden = stage === 'terminating' || stage === 'killing';
  }
}
