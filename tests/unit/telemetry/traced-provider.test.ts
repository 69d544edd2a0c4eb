import { expect } from 'chai';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import type { DeliveryTraceStore } from '../../../adapters/telemetry/delivery-trace-store.ts';
import { TracedProvider } from '../../../adapters/telemetry/traced-provider.ts';
import type { TraceCarrier } from '../../../adapters/telemetry/tracing.ts';
import { startTracing } from '../../../hosts/tracing.ts';

/** A trace store that keeps what it is asked to record. */
class KeptTraces implements DeliveryTraceStore {
  readonly records: Array<{ provider: string; providerMessageId: string; carrier: TraceCarrier }> = [];
  async record(provider: string, providerMessageId: string, carrier: TraceCarrier): Promise<void> { this.records.push({ provider, providerMessageId, carrier }); }
  async find(): Promise<TraceCarrier | null> { return null; }
}

const message = (messageId: string) => ({
  messageId, internalMessageId: `msg_${messageId}`, organizationId: 'org-1', channel: 'SMS' as const, to: '+233245550001', subject: null, body: 'Hello', push: null, senderId: null,
});

describe('TracedProvider: the delivery report\'s trace is recorded for sampled traces only', () => {
  for (const [sampler, recorded] of [['always_on', true], ['always_off', false]] as const) {
    it(`${sampler}: ${recorded ? 'records the accepted call\'s trace context by the vendor\'s message id' : 'records nothing (no insert a message under a sampler)'}`, async () => {
      const exporter = new InMemorySpanExporter();
      const tracing = (await startTracing({ env: { OTEL_TRACES_SAMPLER: sampler }, exporter }))!;
      try {
        const traces = new KeptTraces();
        const provider = new TracedProvider(new RecordingProvider('SMS', 'traced-sms'), traces);
        const result = await provider.send(message('m-1'));
        expect(result.accepted).to.equal(true);
        if (!result.accepted) return;
        expect(traces.records.map((r) => r.providerMessageId)).to.deep.equal(recorded ? [result.providerMessageId] : []);
        if (recorded) expect(traces.records[0]!.carrier['traceparent']).to.match(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
        expect(exporter.getFinishedSpans().map((s) => s.name)).to.deep.equal(recorded ? ['SMS send'] : []);
      } finally {
        await tracing.shutdown();
      }
    });
  }
});
