import { render } from 'preact';
import { App } from './app/app.js';
import './app/app.css';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
