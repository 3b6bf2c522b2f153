export { useLinkNavigation } from './use-link-navigation.ts';
export { useNavigationFocus } from './use-navigation-focus.ts';
