import { render } from 'preact';
import { App } from './app/app.js';
import { installBrowserPlatform } from './platform/browser-platform.js';
import './app/app.css';

installBrowserPlatform();
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
