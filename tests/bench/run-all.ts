// `pnpm bench`: every benchmark, one after the other (they would skew each other in
// parallel). Needs the build (`pnpm run build`). Results go to stdout and bench/results/.
import { runApiBench } from './api-user-vs-bare';
import { runCaseSearchDeviceBench } from './case-search-device';
import { runCaseSearchServerBench } from './case-search-server';
import { runEmbeddedMemoryBench } from './embedded-memory';
import { runInventoryStockBench } from './inventory-stock';
import { runLoadBench } from './load-concurrency';
import { runLocalSaveBench } from './local-save';
import { runNotificationsSendBench } from './notifications-send';
import { runPushGrowthBench } from './push-growth';
import { runSyncBench } from './sync-engine';
import { runSyncThroughputBench } from './sync-throughput';
import { runWebBench } from './web-first-render';
import { runWebStaticBench } from './web-first-render-static';

console.log('RescueLog benchmarks (reports only; nothing here fails on a slow machine)');
await runApiBench();
await runLoadBench();
runWebStaticBench(['web/dist']);
await runWebBench();
await runSyncBench();
await runSyncThroughputBench();
await runPushGrowthBench();
await runEmbeddedMemoryBench();
await runLocalSaveBench();
await runCaseSearchServerBench();
await runCaseSearchDeviceBench();
await runNotificationsSendBench();
await runInventoryStockBench();
