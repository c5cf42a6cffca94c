/** What the form holds, as typed: numbers stay text until the config schema has checked them. */
export interface FormValues {
  model: string;
  hardware: string;
  numInstances: string;
  seed: string;
  /** Empty: no time series. */
  timeseriesMs: string;
  workloadKind: 'preset' | 'spec' | 'trace';
  preset: string;
  numRequests: string;
  rate: string;
  specFile: File | undefined;
  traceHeader: File | undefined;
  traceData: File | undefined;
  routing: string;
  scorers: string;
  admission: string;
  priority: string;
  scheduler: string;
}

/** Reads the run form. */
export function readForm(form: HTMLFormElement): FormValues {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  const file = (name: string) => {
    const v = data.get(name);
    // An empty file input still submits a nameless, empty File.
    return v instanceof File && v.name !== '' ? v : undefined;
  };
  const kind = text('workloadKind');
  return {
    model: text('model'),
    hardware: text('hardware'),
    numInstances: text('numInstances'),
    seed: text('seed'),
    timeseriesMs: text('timeseriesMs'),
    workloadKind: kind === 'spec' || kind === 'trace' ? kind : 'preset',
    preset: text('preset'),
    numRequests: text('numRequests'),
    rate: text('rate'),
    specFile: file('specFile'),
    traceHeader: file('traceHeader'),
    traceData: file('traceData'),
    routing: text('routing'),
    scorers: text('scorers'),
    admission: text('admission'),
    priority: text('priority'),
    scheduler: text('scheduler'),
  };
}

/**
 * A number field's value for the schema: the number when the text is one, else the text itself,
 * so that the schema's message shows what was typed ("expected a number, found "ten"").
 */
export function numberOrText(text: string): number | string {
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : text;
}
