import { expect } from 'chai';
import * as sdk from '@opentelemetry/sdk-trace';
import { samplerFrom, startTracing, tracesExporters } from '../../../hosts/tracing.ts';
import { tracingOn } from '../../../adapters/telemetry/tracing.ts';

describe('tracing configuration from the standard OTEL_* variables', () => {
  it('is off by default and with OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none, whatever the endpoint says', async () => {
    expect(tracesExporters({})).to.deep.equal([]);
    expect(tracesExporters({ OTEL_SERVICE_NAME: 'nkra' })).to.deep.equal([]);
    expect(tracesExporters({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.deep.equal([]);
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.deep.equal([]);
    expect(await startTracing({ env: {} })).to.equal(null);
    expect(tracingOn()).to.equal(false);
  });

  it('turns on with an OTLP endpoint or an explicit otlp/console exporter list', () => {
    expect(tracesExporters({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.deep.equal(['otlp']);
    expect(tracesExporters({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).to.deep.equal(['otlp']);
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: 'otlp' })).to.deep.equal(['otlp']);
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: ' Console , zipkin ' })).to.deep.equal(['console']);
  });

  it('reads the sampler the specification names, parent-based always-on by default', () => {
    expect(samplerFrom({}, sdk)).to.be.instanceOf(sdk.ParentBasedSampler);
    expect(samplerFrom({ OTEL_TRACES_SAMPLER: 'always_off' }, sdk)).to.be.instanceOf(sdk.AlwaysOffSampler);
    expect(String(samplerFrom({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, sdk))).to.include('0.25');
    expect(String(samplerFrom({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'lots' }, sdk))).to.include('1');
  });
});
