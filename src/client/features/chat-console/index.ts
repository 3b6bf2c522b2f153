export { ChatConsole } from './ChatConsole.tsx';
