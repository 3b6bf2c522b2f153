export { ChatSlot } from './ChatSlot.tsx';
