export { ContactForm } from './ContactForm.tsx';
