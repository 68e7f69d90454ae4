export { QueueEta } from './QueueEta';
export { StartsHeatmap } from './StartsHeatmap';
export { WinProbability } from './WinProbability';
