import { describe, expect, it } from 'vitest';
import { RequestHistogram } from './request-histogram.ts';

describe('the request histogram', () => {
  it('writes cumulative buckets, the sum and the count of each label set in the text format', () => {
    const histogram = new RequestHistogram('t_seconds', 'Test requests', [0.01, 0.1]);
    histogram.observe('GET', '/:lang/about', 200, 0.005);
    histogram.observe('GET', '/:lang/about', 200, 0.05);
    histogram.observe('GET', '/:lang/about', 200, 3);
    histogram.observe('POST', '/a"b\\c', 404, 0.01);
    expect(histogram.format().split('\n')).toEqual([
      '# HELP t_seconds Test requests',
      '# TYPE t_seconds histogram',
      't_seconds_bucket{method="GET",route="/:lang/about",status="200",le="0.01"} 1',
      't_seconds_bucket{method="GET",route="/:lang/about",status="200",le="0.1"} 2',
      't_seconds_bucket{method="GET",route="/:lang/about",status="200",le="+Inf"} 3',
      't_seconds_sum{method="GET",route="/:lang/about",status="200"} 3.055',
      't_seconds_count{method="GET",route="/:lang/about",status="200"} 3',
      // A value on a bound falls in that bucket (Prometheus's `le`: less or equal).
      't_seconds_bucket{method="POST",route="/a\\"b\\\\c",status="404",le="0.01"} 1',
      't_seconds_bucket{method="POST",route="/a\\"b\\\\c",status="404",le="0.1"} 1',
      't_seconds_bucket{method="POST",route="/a\\"b\\\\c",status="404",le="+Inf"} 1',
      't_seconds_sum{method="POST",route="/a\\"b\\\\c",status="404"} 0.01',
      't_seconds_count{method="POST",route="/a\\"b\\\\c",status="404"} 1',
      '',
    ]);
  });
});
