export { AdminCalibrationScreen as default } from './AdminCalibrationScreen';
